import Testing
import TestSupport
@testable import RecordStore

@Suite struct ChangeTagTests {
    @Test("a change tag is the incarnation and the offset in base 36, joined by a dash, up to Int64.max")
    func baseThirtySix() {
        var random = SeededGenerator(seed: 36)
        var values: [Int64] = [0, 1, 35, 36, 37, 1295, 1296, Int64.max - 1, Int64.max]
        for _ in 0..<200 { values.append(Int64.random(in: 0...Int64.max, using: &random)) }
        for incarnation in values.shuffled(using: &random).prefix(40) {
            for offset in values {
                let tag = ChangeTag.make(incarnation: incarnation, offset: offset)
                #expect(tag == String(incarnation, radix: 36) + "-" + String(offset, radix: 36))
                #expect(tag.utf8.count <= ChangeTag.longest.utf8.count)
            }
        }
        #expect(ChangeTag.make(incarnation: 0, offset: 46_655) == "0-zzz")
    }
}
