/// Deterministic 64-bit hashing of non-numeric keys (FNV-1a followed by a strong finaliser).
///
/// Unlike Swift's `Hasher` this is stable across processes, so a trace with string keys
/// replays identically every run. Cost: one multiply per byte plus a constant.
public enum KeyHash {
  /// Hashes the bytes in `buffer`.
  @inlinable
  public static func hash(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in buffer {
      h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return mix(h)
  }

  /// Hashes the UTF-8 bytes of `string`.
  @inlinable
  public static func hash(_ string: String) -> UInt64 {
    var copy = string
    return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
  }

  /// The same hash fed piece by piece (bytes and integers), without building a buffer.
  @frozen
  public struct Streaming {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable public init() {}

    /// Adds one byte.
    @inlinable
    public mutating func add(_ byte: UInt8) {
      state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Adds the eight little-endian bytes of `value`.
    @inlinable
    public mutating func addInteger(_ value: Int64) {
      var bits = UInt64(bitPattern: value)
      for _ in 0..<8 {
        add(UInt8(truncatingIfNeeded: bits))
        bits >>= 8
      }
    }

    /// The hash of everything added.
    @inlinable public var value: UInt64 { KeyHash.mix(state) }
  }

  /// A bijective 64-bit mixer (the SplitMix64 finaliser).
  @inlinable
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
