import StorageKit
extension RecordCodec {
    /// Validates `record` and appends its value bytes to `buffer`.
    ///
    /// Nothing is appended when it throws. Reuse one buffer for many records to avoid allocations.
    ///
    /// - Throws: ``RecordStoreError/Code/invalidArguments`` when ``Record/validate()`` fails,
    ///   ``RecordStoreError/Code/limitExceeded`` when the value would exceed 1 MB.
    package static func encode(_ record: Record, into buffer: inout [UInt8]) throws(RecordStoreError) {
        try record.validate()
        try encodeValidated(record, into: &buffer)
    }

    /// Appends the value bytes of a record already validated — the commit path's planner
    /// validates every record it plans, and validating twice was a twentieth of a batched save.
    ///
    /// - Parameter bound: an upper bound of the encoded size (`ZonePlanner.encodedSizeBound`),
    ///   when the caller has it.
    /// - Throws: ``RecordStoreError/Code/limitExceeded`` when the value would exceed 1 MB.
    static func encodeValidated(_ record: Record, into buffer: inout [UInt8], bound: Int? = nil) throws(RecordStoreError) {
        let start = buffer.count
        let capacity = bound ?? ZonePlanner.encodedSizeBound(record)
        // Room for the bound first (zeros: a short memset), written through a pointer, then cut
        // to what was written.
        buffer.append(contentsOf: repeatElement(0, count: capacity))
        let size = buffer.withUnsafeMutableBytes { bytes in
            var writer = BoundedByteWriter(UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
            write(record, to: &writer)
            return writer.count
        }
        buffer.removeLast(capacity - size)
        if size > RecordLimits.maximumEncodedRecordSize {
            buffer.removeSubrange(start...)
            throw RecordStoreError(
                .limitExceeded,
                "Record \(record.recordID) encodes to \(size) bytes, more than the 1 MB "
                    + "(\(RecordLimits.maximumEncodedRecordSize) bytes) a record may hold. "
                    + "Split large data across several records.",
                recordID: record.recordID)
        }
    }

    private static func write(_ record: Record, to buffer: inout BoundedByteWriter) {
        buffer.append(version)
        appendShortString(record.recordType, to: &buffer)
        appendSystemFields(of: record, to: &buffer)
        buffer.appendUnsignedVarint(UInt64(record.fields.count))
        // By index: `for field in record.fields` copied every field out of the array (retains
        // and releases of its key and value).
        for index in record.fields.indices {
            appendShortString(record.fields[index].key, to: &buffer)
            buffer.append(Tag(record.fields[index].value.kind).rawValue)
            appendPayload(of: record.fields[index].value, to: &buffer)
        }
    }

    /// Validates `record` and returns its value bytes.
    ///
    /// - Throws: as ``encode(_:into:)``.
    package static func encode(_ record: Record) throws(RecordStoreError) -> [UInt8] {
        var buffer: [UInt8] = []
        try encode(record, into: &buffer)
        return buffer
    }

    private static func appendSystemFields(of record: Record, to buffer: inout BoundedByteWriter) {
        let creation = record.creationDate.flatMap(MillisecondDate.milliseconds(of:))
        let modification = record.modificationDate.flatMap(MillisecondDate.milliseconds(of:))
        var flags: UInt8 = 0
        if creation != nil { flags |= SystemFieldFlag.creationDate }
        if modification != nil { flags |= SystemFieldFlag.modificationDate }
        if record.recordChangeTag != nil { flags |= SystemFieldFlag.changeTag }
        if record.syncChangeTag != nil { flags |= SystemFieldFlag.syncChangeTag }
        if record.syncAuthor != nil { flags |= SystemFieldFlag.syncAuthor }
        buffer.append(flags)
        if let creation { buffer.appendVarlong(creation) }
        if let modification { buffer.appendVarlong(modification) }
        if let tag = record.recordChangeTag { appendShortString(tag, to: &buffer) }
        if let tag = record.syncChangeTag { appendShortString(tag, to: &buffer) }
        if let author = record.syncAuthor {
            buffer.appendVarlong(author.editedAt)
            buffer.append(UInt8(truncatingIfNeeded: author.device.count))
            buffer.append(contentsOf: author.device)
        }
    }

    /// A string of at most 255 bytes (checked by validation): a 1-byte length, then the bytes.
    private static func appendShortString(_ string: String, to buffer: inout BoundedByteWriter) {
        buffer.append(UInt8(truncatingIfNeeded: string.utf8.count))
        buffer.appendUTF8(string)
    }

    /// The value without its tag byte (lists write their elements' tag once).
    private static func appendPayload(of value: FieldValue, to buffer: inout BoundedByteWriter) {
        switch value {
        case .string(let string):
            buffer.appendUnsignedVarint(UInt64(string.utf8.count))
            buffer.appendUTF8(string)
        case .int64(let integer):
            buffer.appendVarlong(integer)
        case .double(let double):
            buffer.appendInteger(double.bitPattern)
        case .bool(let bool):
            buffer.append(bool ? 1 : 0)
        case .date(let date):
            // Validation has checked the range; 0 is never written for a valid record.
            buffer.appendVarlong(MillisecondDate.milliseconds(of: date) ?? 0)
        case .bytes(let bytes):
            buffer.appendUnsignedVarint(UInt64(bytes.count))
            buffer.append(contentsOf: bytes)
        case .reference(let reference):
            buffer.append(reference.action.rawValue)
            appendShortString(reference.recordID.recordName, to: &buffer)
        case .location(let location):
            buffer.appendInteger(location.latitude.bitPattern)
            buffer.appendInteger(location.longitude.bitPattern)
        case .list(let elements):
            buffer.appendUnsignedVarint(UInt64(elements.count))
            guard let first = elements.first else { return }
            buffer.append(Tag(first.kind).rawValue)
            for element in elements { appendPayload(of: element, to: &buffer) }
        }
    }
}
