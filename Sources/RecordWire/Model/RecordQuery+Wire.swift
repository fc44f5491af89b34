import RecordStore

// A query as CloudKit Web Services writes it:
//
//     {"recordType": "Note",
//      "filterBy": [{"fieldName": "title", "comparator": "BEGINS_WITH",
//                    "fieldValue": {"value": "Buy", "type": "STRING"}}],
//      "sortBy": [{"fieldName": "modified", "ascending": false}]}
//
// A `NEAR` filter has `distance` (meters); a sort by distance has `relativeLocation`
// ({"latitude", "longitude"}).
extension RecordQuery {
    private static let comparators: KeyValuePairs<String, QueryPredicate.Comparison> = [
        "EQUALS": .equals, "NOT_EQUALS": .notEquals, "LESS_THAN": .lessThan, "LESS_THAN_OR_EQUALS": .lessThanOrEquals,
        "GREATER_THAN": .greaterThan, "GREATER_THAN_OR_EQUALS": .greaterThanOrEquals, "IN": .in, "BEGINS_WITH": .beginsWith,
        "LIST_CONTAINS": .listContains, "CONTAINS_TOKEN": .tokenMatch, "CONTAINS_ALL_TOKENS": .allTokensMatch,
        "NEAR": .withinDistance, "TRUE": .truePredicate, "FALSE": .falsePredicate,
    ]

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("recordType")
        writer.string(recordType)
        writer.key("filterBy")
        writer.beginArray()
        for predicate in predicates {
            writer.beginObject()
            writer.key("fieldName")
            writer.string(predicate.key)
            writer.key("comparator")
            writer.string(Self.comparators.first { $0.value == predicate.comparison }?.key ?? "EQUALS")
            writer.key("fieldValue")
            predicate.value.write(to: &writer)
            if let distance = predicate.distance {
                writer.key("distance")
                writer.double(distance)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("sortBy")
        writer.beginArray()
        for sort in sortDescriptors {
            writer.beginObject()
            writer.key("fieldName")
            writer.string(sort.key)
            writer.key("ascending")
            writer.bool(sort.ascending)
            if let location = sort.relativeLocation {
                writer.key("relativeLocation")
                location.write(to: &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    /// A query; a reference in a filter without a `zoneID` is in `zoneID`.
    package init(wire: WireReader, zoneID: ZoneID) throws {
        let object = try wire.object()
        let predicates = try object.list("filterBy") { filter in
            let filter = try filter.object()
            var predicate = QueryPredicate(
                try filter.required("fieldName").string(), try filter.required("comparator").oneOf(Self.comparators),
                try FieldValue(wire: try filter.required("fieldValue"), zoneID: zoneID))
            predicate.distance = try filter.optional("distance")?.double()
            return predicate
        }
        let sorts = try object.list("sortBy") { sort in
            let sort = try sort.object()
            var descriptor = QuerySortDescriptor(key: try sort.required("fieldName").string(), ascending: try sort.optional("ascending")?.bool() ?? true)
            descriptor.relativeLocation = try sort.optional("relativeLocation").map(Location.init(wire:))
            return descriptor
        }
        self.init(recordType: try object.required("recordType").string(), predicates: predicates, sortDescriptors: sorts)
    }
}
