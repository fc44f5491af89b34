import Foundation

extension Record {
    /// Checks the record against CloudKit's rules: record type, record name and zone, field keys,
    /// one kind per list, list depth, references within the record's zone, date and location ranges,
    /// and system fields. The size limit is checked when the record is encoded.
    ///
    /// - Throws: ``RecordStoreError/Code/invalidArguments`` naming the first rule broken.
    package func validate() throws(RecordStoreError) {
        try validate(allowingSystemName: false)
    }

    /// Checks the record as ``validate()`` does; with `allowingSystemName`, a name starting with
    /// `_` (a system record of the store's own, written by sync: FORMAT.md §10.3) is accepted.
    package func validate(allowingSystemName: Bool) throws(RecordStoreError) {
        if let problem = recordType.withUTF8Bytes(IdentifierProblem.of) {
            throw invalid(
                "Record type \"\(recordType)\" is invalid: \(problem.reason). "
                    + "Use a name that starts with an ASCII letter and has only letters, digits and underscores, like \"Note\".")
        }
        try recordID.validate(allowingSystemName: allowingSystemName)
        // By index, not `for field in fields`: the iterator hands out a copy of each field, its
        // key and value retained and released (BENCHMARKS.md, "Figures behind the code").
        for index in fields.indices {
            if let problem = fields[index].key.withUTF8Bytes(IdentifierProblem.of) {
                throw invalid(
                    "Field key \"\(fields[index].key)\" is invalid: \(problem.reason). Use a key of at most "
                        + "\(RecordLimits.maximumFieldKeyLength) characters that starts with an ASCII letter and has only letters, digits and underscores.")
            }
            // Read in place: a value of a kind with nothing to check is not copied out of the
            // array (a retain and a release of its storage each).
            switch fields[index].value {
            case .string, .int64, .double, .bool, .bytes: continue
            default: try validate(fields[index].value, key: fields[index].key, depth: 0)
            }
        }
        try validateSystemFields()
    }

    private func validate(_ value: FieldValue, key: String, depth: Int) throws(RecordStoreError) {
        switch value {
        case .string, .int64, .double, .bool, .bytes:
            return
        case .date(let date):
            if MillisecondDate.milliseconds(of: date) == nil {
                throw invalid(
                    "Field \"\(key)\" holds the date \(MillisecondDate.describe(date)), outside the storable range. "
                        + "Use a date between Date.distantPast and Date.distantFuture.")
            }
        case .location(let location):
            if !location.isValid {
                throw invalid(
                    "Field \"\(key)\" holds the location (\(location.latitude), \(location.longitude)). "
                        + "Use a latitude in -90...90 and a longitude in -180...180.")
            }
        case .reference(let reference):
            try validate(reference, key: key)
        case .list(let elements):
            try validate(list: elements, key: key, depth: depth + 1)
        }
    }

    private func validate(list elements: [FieldValue], key: String, depth: Int) throws(RecordStoreError) {
        if depth > RecordLimits.maximumListDepth {
            throw invalid(
                "Field \"\(key)\" nests lists \(depth) deep, more than \(RecordLimits.maximumListDepth). "
                    + "Flatten the data or store it as bytes.")
        }
        guard let kind = elements.first?.kind else { return }
        for element in elements {
            if element.kind != kind {
                throw invalid(
                    "Field \"\(key)\" holds a list that mixes \(kind) and \(element.kind) values. "
                        + "A list must hold values of one kind; use one list per kind.")
            }
            try validate(element, key: key, depth: depth)
        }
    }

    private func validate(_ reference: Reference, key: String) throws(RecordStoreError) {
        if reference.recordID.zoneID != recordID.zoneID {
            let target = reference.recordID
            throw invalid(
                "Field \"\(key)\" refers to \(target), which is in zone \"\(target.zoneID)\", not \"\(recordID.zoneID)\". "
                    + "References must stay within their zone: move the records into one zone, or store the name as a string.")
        }
        if let problem = reference.recordID.recordName.withUTF8Bytes(NameProblem.ofRecordName) {
            throw invalid(
                "Field \"\(key)\" refers to the record name \"\(reference.recordID.recordName)\", which is invalid: \(problem.reason). "
                    + "Refer to a record by the ID it was saved with.")
        }
    }

    private func validateSystemFields() throws(RecordStoreError) {
        try validateSystemDate(creationDate)
        try validateSystemDate(modificationDate)
        if let author = syncAuthor, author.device.count > RecordLimits.maximumNameLength {
            throw invalid("The sync author's device identity is \(author.device.count) bytes long, more than \(RecordLimits.maximumNameLength).")
        }
        try validateChangeTag(recordChangeTag)
        try validateChangeTag(syncChangeTag)
    }

    /// One call per tag, not a loop over an array of both: that array was an allocation per
    /// saved record.
    private func validateChangeTag(_ tag: String?) throws(RecordStoreError) {
        if let tag, tag.utf8.count > RecordLimits.maximumNameLength {
            throw invalid(
                "The change tag is \(tag.utf8.count) bytes long, more than \(RecordLimits.maximumNameLength); "
                    + "it was not set by this store. Fetch the record again.")
        }
    }

    private func validateSystemDate(_ date: Date?) throws(RecordStoreError) {
        if let date, MillisecondDate.milliseconds(of: date) == nil {
            throw invalid("A system date (\(MillisecondDate.describe(date))) is outside the storable range; it was not set by this store. Fetch the record again.")
        }
    }

    /// An `invalidArguments` error about this record.
    private func invalid(_ message: String) -> RecordStoreError {
        RecordStoreError(.invalidArguments, "Record \(recordID): \(message)", recordID: recordID)
    }
}
