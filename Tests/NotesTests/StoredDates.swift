import Foundation

/// Whether `date` is a date as the store keeps it: a whole number of milliseconds since 1970.
func isStoredDate(_ date: Date?) -> Bool {
    guard let date else { return false }
    return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000) == date
}

/// Whether `date` is a save time taken between `start` and `end`, allowing for the rounding to
/// whole milliseconds.
func isSaveTime(_ date: Date?, between start: Date, and end: Date) -> Bool {
    guard let date else { return false }
    return date >= start.addingTimeInterval(-0.001) && date <= end.addingTimeInterval(0.001)
}
