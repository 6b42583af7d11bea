import CacheCore

/// The rules image libraries share: the trace key and cost, and only responses whose status
/// the downloader accepts are stored.
struct ImageLibraryRules: LibraryRules {
  /// Accepted statuses (half-open).
  var accepted: Range<Int16>
  /// The cost a promoted disk hit is charged (nil: its stored cost).
  var promotedCost: Int64?

  func storesStatus(_ status: Int16) -> Bool { accepted.contains(status) }

  func promotionCost(_ stored: EntryMetadata) -> Int64 { promotedCost ?? stored.cost }

  /// 200..<300 (SDWebImage, AFNetworking, Nuke).
  static let twoHundreds = ImageLibraryRules(accepted: 200..<300)
}
