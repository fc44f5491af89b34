import Foundation

/// The sizes and modification times of a store's segment files: when neither changed, nothing
/// was appended. (The size alone is not enough: the writer preallocates the active segment, so
/// appends land inside the file without growing it.)
enum StoreFingerprint {
    /// Segment path → size and modification time, for every `.log` file under `store/zones/`.
    static func segmentSizes(store: String) -> [String: String] {
        let zones = store + "/zones"
        var sizes: [String: String] = [:]
        let manager = FileManager.default
        for directory in (try? manager.contentsOfDirectory(atPath: zones)) ?? [] {
            let path = zones + "/" + directory
            for file in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where file.hasSuffix(".log") {
                let attributes = try? manager.attributesOfItem(atPath: path + "/" + file)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
                sizes[path + "/" + file] = "\(size) \(modified)"
            }
        }
        return sizes
    }
}
