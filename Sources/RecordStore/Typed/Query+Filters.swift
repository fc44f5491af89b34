// The filters of a typed query. Each returns a copy with one more condition (AND). Values are
// mapped as ``RecordEncoder`` maps properties, so a reference field compares with a record name
// (or a RecordID), and the system-date fields compare with dates.
extension Query {
    /// Records whose `field` equals `value`.
    ///
    /// ```swift
    /// Query<Note>().filter(.folder, equals: folder.id)
    /// ```
    public func filter(_ field: Model.Fields, equals value: some Encodable) -> Self {
        adding(field, .equals, value)
    }

    /// Records whose `field` holds a value of the same kind other than `value` (a record without
    /// the field does not match).
    public func filter(_ field: Model.Fields, notEquals value: some Encodable) -> Self {
        adding(field, .notEquals, value)
    }

    /// Records whose `field` is less than `value` (strings, numbers, dates).
    ///
    /// ```swift
    /// Query<Note>().filter(.modifiedAt, lessThan: lastWeek)
    /// ```
    public func filter(_ field: Model.Fields, lessThan value: some Encodable) -> Self {
        adding(field, .lessThan, value)
    }

    /// Records whose `field` is less than or equal to `value`.
    public func filter(_ field: Model.Fields, lessThanOrEquals value: some Encodable) -> Self {
        adding(field, .lessThanOrEquals, value)
    }

    /// Records whose `field` is greater than `value`.
    public func filter(_ field: Model.Fields, greaterThan value: some Encodable) -> Self {
        adding(field, .greaterThan, value)
    }

    /// Records whose `field` is greater than or equal to `value`.
    public func filter(_ field: Model.Fields, greaterThanOrEquals value: some Encodable) -> Self {
        adding(field, .greaterThanOrEquals, value)
    }

    /// Records whose single-valued `field` equals one of `values` (the store's `in`).
    ///
    /// ```swift
    /// Query<Note>().filter(.folder, anyIn: [inbox.id, archive.id])
    /// ```
    ///
    /// For a list field this compares the whole list with each value, which is rarely wanted: to
    /// find records whose list holds an element, use ``filter(_:contains:)``. "Holds any of several
    /// elements" needs one query per element, as predicates combine with AND only.
    public func filter<Value: Encodable>(_ field: Model.Fields, anyIn values: [Value]) -> Self {
        var query = self
        var encoded: [FieldValue] = []
        for value in values {
            guard let element = query.encode(value, for: field) else { return query }
            encoded.append(element)
        }
        return query.adding(field, .in, FieldValue.list(encoded))
    }

    /// Records whose list `field` holds `element` (the store's `listContains`).
    ///
    /// ```swift
    /// Query<Note>().filter(.tags, contains: "work")
    /// ```
    public func filter(_ field: Model.Fields, contains element: some Encodable) -> Self {
        adding(field, .listContains, element)
    }

    /// Records whose string `field` starts with `prefix` (case-sensitive, byte for byte).
    ///
    /// ```swift
    /// Query<Note>().filter(.title, beginsWith: "A")
    /// ```
    public func filter(_ field: Model.Fields, beginsWith prefix: String) -> Self {
        adding(field, .beginsWith, prefix)
    }

    /// Records where every word of `text` is a word of one of the record's string fields (or of a
    /// string in a list), ignoring case, diacritics and stopwords (the store's `allTokensMatch`,
    /// CloudKit's `allTokens TOKENMATCHES[cdl]`).
    ///
    /// ```swift
    /// Query<Note>().matching(words: "creme brulee")
    /// ```
    public func matching(words text: String) -> Self {
        var query = self
        query.filters.append(Filter(key: QueryPredicate.allTokensKey, comparison: .allTokensMatch, value: .string(text)))
        return query
    }

    private func adding(_ field: Model.Fields, _ comparison: QueryPredicate.Comparison, _ value: some Encodable) -> Self {
        var query = self
        guard let key = RecordFieldMapping(Model.self).queryKey(for: field.rawValue) else {
            query.fail(.unsupportedQuery(
                "cannot filter on the identifier \"\(field.rawValue)\"; fetch the record by its ID with Database.record(for:)"))
            return query
        }
        guard let encoded = query.encode(value, for: field) else { return query }
        query.filters.append(Filter(key: key, comparison: comparison, value: encoded))
        return query
    }

    /// `value` as a field value, or nil after recording why it has none.
    private mutating func encode(_ value: some Encodable, for field: Model.Fields) -> FieldValue? {
        do {
            if let encoded = try FieldValueEncoder.encode(value, path: [FieldPathKey(name: field.rawValue)]) { return encoded }
            fail(.unsupportedQuery("the value to compare \"\(field.rawValue)\" with is nil; a missing field matches no filter"))
        } catch let error as RecordMappingError {
            fail(error)
        } catch {
            fail(.unsupportedValue(field: field.rawValue, reason: "\(error)"))
        }
        return nil
    }
}
