// Running a typed query against a database.
extension Query {
    /// The first page of records matching this query, decoded, with only the model's fields fetched.
    ///
    /// ```swift
    /// let page = try await Query<Note>().filter(.folder, equals: folderID).limit(50).fetch(from: database, in: zone)
    /// ```
    ///
    /// - Parameter zoneID: the zone to search (and the zone of record names given for reference
    ///   fields); nil searches every zone, resolving record names in the default zone.
    /// - Throws: the ``RecordMappingError`` of a filter or sort that could not be mapped, or the
    ///   errors of `Database.records(matching:inZoneWith:desiredKeys:resultsLimit:)` — including
    ///   `unknownItem` when no record of the model's type was ever saved, as in CloudKit.
    public func fetch(from database: Database, in zoneID: ZoneID? = nil) async throws -> TypedQueryResult<Model> {
        let query: RecordQuery
        do { query = try recordQuery(in: zoneID) } catch {
            logFailure(error)
            throw error
        }
        logStart(query, zone: zoneID)
        do {
            let page = try await database.records(
                matching: query, inZoneWith: zoneID, desiredKeys: Model.desiredKeys, resultsLimit: resultsLimit)
            return logged(TypedQueryResult(decoding: page))
        } catch {
            logFailure(error)
            throw error
        }
    }

    /// The page after the one that returned `cursor`, with this query's limit and debugging (its
    /// filters and sorts are the cursor's).
    ///
    /// ```swift
    /// var page = try await query.fetch(from: database)
    /// while let cursor = page.cursor { page = try await query.fetch(continuing: cursor, from: database) }
    /// ```
    ///
    /// - Throws: ``RecordMappingError/wrongRecordType(expected:found:)`` for a cursor of another
    ///   record type, or the errors of `Database.records(continuingMatchFrom:desiredKeys:resultsLimit:)`.
    public func fetch(continuing cursor: QueryCursor, from database: Database) async throws -> TypedQueryResult<Model> {
        guard cursor.query.recordType == Model.recordType else {
            let error = RecordMappingError.wrongRecordType(expected: Model.recordType, found: cursor.query.recordType)
            logFailure(error)
            throw error
        }
        logStart(cursor.query, zone: cursor.zoneID, continuing: true)
        do {
            let page = try await database.records(
                continuingMatchFrom: cursor, desiredKeys: Model.desiredKeys, resultsLimit: resultsLimit)
            return logged(TypedQueryResult(decoding: page))
        } catch {
            logFailure(error)
            throw error
        }
    }
}
