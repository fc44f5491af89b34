/// The segment files of one partition serve as a zone's log: every requirement is one of
/// ``Partition``'s own methods.
extension Partition: LogPartition {}
