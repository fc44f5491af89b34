/// A step of a coding path that the coder makes itself: a field name, or a list position (for
/// error messages such as `tags[2]`).
struct FieldPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(name: String) {
        stringValue = name
        intValue = nil
    }

    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(name: stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
