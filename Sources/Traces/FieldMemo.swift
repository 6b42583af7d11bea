import CacheCore

/// Remembers the parsed value of recently seen field texts (a direct-mapped table of
/// `slots` entries keyed by the field's bytes), so a repeated header value costs a hash and a
/// byte comparison instead of a parse. A hit allocates nothing; a miss parses and keeps a copy
/// of the bytes, replacing whatever shared its slot.
struct FieldMemo<Value> {
  private struct Entry {
    var hash: UInt64
    var bytes: [UInt8]
    var value: Value
  }

  private var entries: [Entry?]
  private let mask: Int

  /// A memo of `slots` entries (rounded up to a power of two).
  init(slots: Int = 256) {
    var count = 1
    while count < slots { count <<= 1 }
    entries = [Entry?](repeating: nil, count: count)
    mask = count - 1
  }

  /// The value of `field`: remembered, or `parse(field)` (a throw is not remembered).
  mutating func value(
    _ field: UnsafeRawBufferPointer, parse: (UnsafeRawBufferPointer) throws(LineError) -> Value
  ) throws(LineError) -> Value {
    let hash = KeyHash.hash(field)
    let index = Int(truncatingIfNeeded: hash) & mask
    if let entry = entries[index], entry.hash == hash, Self.equal(entry.bytes, field) { return entry.value }
    let value = try parse(field)
    entries[index] = Entry(hash: hash, bytes: Array(field), value: value)
    return value
  }

  private static func equal(_ bytes: [UInt8], _ field: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == field.count else { return false }
    return bytes.withUnsafeBytes { $0.elementsEqual(field) }
  }
}
