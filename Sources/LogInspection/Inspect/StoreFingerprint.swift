import Foundation

/// The sizes of a store's segment files: when they have not changed, nothing was appended.
enum StoreFingerprint {
    /// Segment path → size, for every `.log` file under `store/zones/`.
    static func segmentSizes(store: String) -> [String: Int64] {
        let zones = store + "/zones"
        var sizes: [String: Int64] = [:]
        let manager = FileManager.default
        for directory in (try? manager.contentsOfDirectory(atPath: zones)) ?? [] {
            let path = zones + "/" + directory
            for file in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where file.hasSuffix(".log") {
                let attributes = try? manager.attributesOfItem(atPath: path + "/" + file)
                sizes[path + "/" + file] = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            }
        }
        return sizes
    }
}
