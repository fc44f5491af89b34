/// The limits that validation and the record codec enforce, as CloudKit documents them.
///
/// Values are public so that callers can check input early (for example a text field's length)
/// instead of waiting for a save to fail.
public enum RecordLimits {
    /// The longest record name, zone name, owner name or change tag, in UTF-8 bytes (255).
    ///
    /// Record and zone names are ASCII, so for them bytes and characters are the same count.
    public static let maximumNameLength = 255

    /// The longest field key or record type, in characters (255; keys are ASCII).
    public static let maximumFieldKeyLength = 255

    /// The largest encoded record value, in bytes: 1 MB (1,048,576 bytes), CloudKit's record limit.
    public static let maximumEncodedRecordSize = 1_048_576

    /// How deeply lists may nest: a list in a field has depth 1, a list inside it depth 2, and so on.
    public static let maximumListDepth = 4

    /// The owner name of zones that belong to the current user, CloudKit's `CKCurrentUserDefaultName`.
    public static let defaultOwnerName = "__defaultOwner__"

    /// The name of the default zone, CloudKit's `CKRecordZone.ID.defaultZoneName`.
    public static let defaultZoneName = "_defaultZone"
}
