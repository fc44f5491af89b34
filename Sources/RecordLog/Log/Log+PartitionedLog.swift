/// A store directory serves as the set of a store's partitions: every requirement is one of
/// ``Log``'s own members.
extension Log: PartitionedLog {
    package typealias Member = Partition
}
