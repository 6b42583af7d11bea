import CacheCore

/// Disk activity a backend counted.
public struct DiskCounters: Sendable, Equatable {
  public var reads: Int64 = 0
  public var writes: Int64 = 0
  public var bytesRead: Int64 = 0
  public var bytesWritten: Int64 = 0
  public var filesCreated: Int64 = 0
  public var filesDeleted: Int64 = 0
  public var fsyncs: Int64 = 0
  /// Objects found damaged (truncated or failing their checksum) and discarded.
  public var corruptDiscarded: Int64 = 0

  public init() {}
}

/// Where a disk tier's objects live. Every operation returns its cost in microseconds:
/// modelled for the simulated backend, measured wall-clock for the file backend.
protocol DiskBackend: AnyObject {
  var counters: DiskCounters { get }
  /// Stores an object's body and metadata (replacing an older copy).
  func write(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) -> Int64
  /// Reads the body of an object of `size` bytes filed under `contentClass` (all a read
  /// needs, so a hit copies no metadata); returns nil if the stored copy is missing or damaged.
  func read(_ key: UInt64, size: Int64, contentClass: ContentClass) throws(FileError) -> Int64?
  /// Persists a changed access date or expiry.
  func updateDates(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError)
  /// Deletes an object.
  func delete(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError)
  /// The objects found on disk when the process starts (launch).
  func recover() throws(FileError) -> [(key: UInt64, metadata: EntryMetadata)]
}

/// Bookkeeping-only disk: counts I/O as the file store does (its header with every read and
/// write, two fsyncs per write) and charges the latency model's disk read or write cost (the
/// read-after-write cost for the first read after a write), each drawn around its line by
/// the cost's spread from a generator seeded alike for every run.
final class SimulatedDisk: DiskBackend {
  @exclusivity(unchecked) private(set) var counters = DiskCounters()
  private let latency: LatencyModel
  /// Draws the spread factors; a fixed seed, so a replay charges the same times every run.
  @exclusivity(unchecked) private var random = SplitMix64(seed: 0x5eed_d15c)
  /// Whether the last operation charged was a write.
  @exclusivity(unchecked) private var wrote = false

  init(latency: LatencyModel) {
    self.latency = latency
  }

  func write(_ key: UInt64, _ metadata: EntryMetadata) -> Int64 {
    counters.writes += 1
    counters.bytesWritten += Int64(FileStore.headerLength) + metadata.size
    counters.filesCreated += 1
    // The file store's file and its folder.
    counters.fsyncs += 2
    wrote = true
    return latency.diskWrite.cost(metadata.size, random: &random)
  }

  func read(_ key: UInt64, size: Int64, contentClass: ContentClass) -> Int64? {
    counters.reads += 1
    counters.bytesRead += Int64(FileStore.headerLength) + size
    let cost = wrote ? latency.diskReadAfterWrite ?? latency.diskRead : latency.diskRead
    wrote = false
    return cost.cost(size, random: &random)
  }

  func updateDates(_ key: UInt64, _ metadata: EntryMetadata) {}

  func delete(_ key: UInt64, _ metadata: EntryMetadata) {
    counters.filesDeleted += 1
  }

  func recover() -> [(key: UInt64, metadata: EntryMetadata)] { [] }
}
