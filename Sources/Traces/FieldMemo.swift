import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers the parsed value of recently seen field texts (a direct-mapped table of
/// `slots` entries keyed by the field's bytes), so a repeated header value costs a short hash
/// and a `memcmp` instead of a parse. Texts are kept in fixed slots of ``textBytes`` bytes in
/// one block (a longer text is parsed every time). Nothing is allocated or reference-counted
/// after `init`; a miss parses and replaces whatever shared its slot.
final class FieldMemo<Value> {
  /// The longest text remembered.
  static var textBytes: Int { 128 }

  private let mask: Int
  /// Per slot: the length of its text, -1 while empty.
  private let lengths: UnsafeMutablePointer<Int>
  private let values: UnsafeMutablePointer<Value?>
  /// Slot `i`'s text at `texts + i * textBytes`.
  private let texts: UnsafeMutableRawPointer

  /// A memo of `slots` entries (rounded up to a power of two).
  init(slots: Int = 256) {
    var count = 1
    while count < slots { count <<= 1 }
    mask = count - 1
    lengths = .allocate(capacity: count)
    lengths.initialize(repeating: -1, count: count)
    values = .allocate(capacity: count)
    values.initialize(repeating: nil, count: count)
    texts = .allocate(byteCount: count * Self.textBytes, alignment: 8)
  }

  deinit {
    values.deinitialize(count: mask + 1)
    values.deallocate()
    lengths.deallocate()
    texts.deallocate()
  }

  /// The value of `field`: remembered, or `parse(field)` (a throw is not remembered).
  @inline(__always)
  func value(
    _ field: UnsafeRawBufferPointer, parse: (UnsafeRawBufferPointer) throws(LineError) -> Value
  ) throws(LineError) -> Value {
    let count = field.count
    guard count > 0, count <= Self.textBytes, let start = field.baseAddress else { return try parse(field) }
    let slot = Self.slot(start, count) & mask
    let text = texts + slot * Self.textBytes
    if lengths[slot] == count, memcmp(text, start, count) == 0, let value = values[slot] { return value }
    let value = try parse(field)
    text.copyMemory(from: start, byteCount: count)
    lengths[slot] = count
    values[slot] = value
    return value
  }

  /// A hash of the length and the first and last eight bytes: enough to spread a trace's few
  /// distinct header texts, in a few instructions (`memcmp` decides).
  @inline(__always)
  private static func slot(_ start: UnsafeRawPointer, _ count: Int) -> Int {
    var bits = UInt64(count) &* 0x9E37_79B9_7F4A_7C15
    if count >= 8 {
      bits ^= start.loadUnaligned(as: UInt64.self)
      bits = (bits ^ (bits >> 29)) &* 0xBF58_476D_1CE4_E5B9
      bits ^= start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else {
      for index in 0..<count {
        bits = (bits ^ UInt64(start.load(fromByteOffset: index, as: UInt8.self))) &* 0x100_0000_01B3
      }
    }
    bits = (bits ^ (bits >> 32)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: bits ^ (bits >> 29))
  }
}
