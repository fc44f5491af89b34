/// A TIME argument in none of `TimeArgument`'s forms; its message lists them.
///
/// The tools read TIME while parsing their arguments, so the message comes after the option's
/// name: `The value 'yesterday' is invalid for '--since <TIME>': "yesterday" is not a time; give …`.
public struct TimeArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text given.
    public var text: String

    /// An error for `text`.
    public init(text: String) {
        self.text = text
    }

    /// What was given, and the forms to give instead.
    public var description: String {
        "\(text.debugDescription) is not a time; give \(TimeArgument.forms)"
    }
}
