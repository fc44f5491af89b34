/// Where something stands in one zone's log: the zone's incarnation (the offset of its
/// `createZone` event in the system partition, which tells apart two zones of one name) and an
/// offset in its log. A change token, the key index checkpoint and a view's snapshot each hold
/// one per zone.
struct ZonePosition: Sendable, Hashable, Codable {
    var incarnation: Int64
    var offset: Int64
}
