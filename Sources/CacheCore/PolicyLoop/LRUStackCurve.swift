/// What the one-pass LRU curve needs from a policy that is exactly LRU (Mattson et al. 1970:
/// a request hits at every size at least its stack distance), beyond the distances: the
/// bytes the per-size simulation's structures would hold, so that rows made by the pass equal
/// the simulation's in every column.
public struct LRUStackCurve: Sendable {
  /// Bytes of the policy's structures (``CacheSimulation/storageBytes``) at `capacity` once at
  /// most `peakObjects` objects were held at a time. O(log).
  public var structureBytes: @Sendable (_ capacity: Int64, _ peakObjects: Int) -> Int

  public init(structureBytes: @escaping @Sendable (_ capacity: Int64, _ peakObjects: Int) -> Int) {
    self.structureBytes = structureBytes
  }
}
