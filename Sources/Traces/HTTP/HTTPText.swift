import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A text field of an ``HTTPRecord``: a String the producer owns, or bytes borrowed from the
/// line being read (valid while the reader keeps that line: its block of lines, for the log
/// readers). Log readers borrow, so a field
/// costs no String unless a consumer asks for one.
struct HTTPText: ExpressibleByStringLiteral {
  private enum Storage {
    case owned(String)
    case borrowed(UnsafeRawBufferPointer)
  }

  private let storage: Storage

  init(_ string: String) { storage = .owned(string) }

  init(stringLiteral value: String) { self.init(value) }

  /// Text that stays in `bytes`; the caller keeps them alive while the record is in use.
  init(borrowing bytes: UnsafeRawBufferPointer) { storage = .borrowed(bytes) }

  /// Calls `body` with the UTF-8 bytes; no copy for borrowed text or native Strings.
  @inline(__always)
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    switch storage {
    case .borrowed(let bytes): return try body(bytes)
    case .owned(var string): return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
  }

  /// The text as a String (built from borrowed bytes: one allocation above 15 bytes).
  var string: String {
    switch storage {
    case .borrowed(let bytes): String(decoding: bytes, as: UTF8.self)
    case .owned(let string): string
    }
  }

  /// The bytes of borrowed text (which outlive this value), nil for an owned String.
  var borrowedBytes: UnsafeRawBufferPointer? {
    if case .borrowed(let bytes) = storage { return bytes }
    return nil
  }

  var isEmpty: Bool {
    switch storage {
    case .borrowed(let bytes): bytes.isEmpty
    case .owned(let string): string.isEmpty
    }
  }
}

extension Optional where Wrapped == HTTPText {
  /// Wraps an optional String.
  init(_ string: String?) { self = string.map { HTTPText($0) } }
}

/// Reusable bytes a reader writes derived text into (unescaped fields, assembled URLs) and
/// lends out as ``HTTPText``: ``reset(capacity:shrinking:)`` (before each record, or each
/// block of lines with ``room`` checked per line) guarantees room for everything appended
/// until the next reset, so what was lent stays where it is until then.
final class ByteScratch {
  private var base: UnsafeMutableRawPointer
  private var capacity: Int
  private var used = 0

  init(capacity: Int = 4_096) {
    self.capacity = capacity
    base = .allocate(byteCount: capacity, alignment: 1)
  }

  deinit { base.deallocate() }

  /// Forgets what was appended and makes room for `capacity` bytes: reallocates to grow, and
  /// when `shrinking`, to give back what an earlier reset grew beyond `capacity`.
  @inline(__always)
  func reset(capacity needed: Int, shrinking: Bool = false) {
    used = 0
    guard needed > capacity || (shrinking && capacity > needed) else { return }
    base.deallocate()
    capacity = shrinking ? needed : max(needed, capacity * 2)
    base = .allocate(byteCount: capacity, alignment: 1)
  }

  /// Writes `count` bytes through `fill` (which returns how many it wrote) and returns them.
  @inline(__always)
  func append(upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int) -> UnsafeRawBufferPointer {
    precondition(used + count <= capacity, "ByteScratch: reset(capacity:shrinking:) reserved too little")
    let written = fill(UnsafeMutableRawBufferPointer(start: base + used, count: count))
    defer { used += written }
    return UnsafeRawBufferPointer(start: base + used, count: written)
  }

  /// Bytes that can still be appended before the next ``reset(capacity:shrinking:)``.
  var room: Int { capacity - used }

  /// Appends a copy of `bytes`.
  @inline(__always)
  func append(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    append(upTo: bytes.count) { out in
      if !bytes.isEmpty { out.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
      return bytes.count
    }
  }

  /// Appends the concatenation of `first`, `second` and `third` (no array per call).
  @inline(__always)
  func append(
    _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, _ third: UnsafeRawBufferPointer
  ) -> UnsafeRawBufferPointer {
    append(upTo: first.count + second.count + third.count) { out in
      var offset = 0
      func copy(_ part: UnsafeRawBufferPointer) {
        guard !part.isEmpty else { return }
        out.baseAddress!.advanced(by: offset).copyMemory(from: part.baseAddress!, byteCount: part.count)
        offset += part.count
      }
      copy(first)
      copy(second)
      copy(third)
      return offset
    }
  }
}

/// Parsed values of repeated header texts, keyed by the bytes (a log repeats a few
/// `Cache-Control` values and each URL's dates on most lines): one hash of the bytes, an
/// open-addressed probe and a compare per look-up; no String, no allocation once full.
struct ByteMemo<Value> {
  /// At most this many texts are kept; later ones are parsed every time.
  static var limit: Int { 4_096 }
  /// Entry number per table slot, -1 when empty (twice the limit: probes stay short).
  private var table = [Int32](repeating: -1, count: 2 * limit)
  private var hashes: [UInt64] = []
  private var ends: [Int] = []
  private var texts: [UInt8] = []
  private var values: [Value] = []

  /// The value of `text`, parsing it on its first sight.
  mutating func value(_ text: HTTPText, parse: (UnsafeRawBufferPointer) -> Value) -> Value {
    text.withBytes { bytes in
      let hash = Self.hash(bytes)
      let mask = table.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while table[slot] >= 0 {
        let entry = Int(table[slot])
        if hashes[entry] == hash, same(entry, bytes) { return values[entry] }
        slot = (slot + 1) & mask
      }
      let value = parse(bytes)
      if values.count < Self.limit {
        table[slot] = Int32(values.count)
        hashes.append(hash)
        texts.append(contentsOf: bytes)
        ends.append(texts.count)
        values.append(value)
      }
      return value
    }
  }

  /// A hash of `bytes` taken 8 at a time (a memo compares the bytes too, so it needs only
  /// to spread them, not to match ``KeyHash``).
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset + 8 <= bytes.count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 32
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    // The slot takes the low bits: fold every bit into them.
    return KeyHash.mix(hash ^ tail)
  }

  private func same(_ entry: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    let start = entry == 0 ? 0 : ends[entry - 1]
    guard ends[entry] - start == bytes.count else { return false }
    return texts.withUnsafeBytes { stored in
      bytes.isEmpty || memcmp(stored.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
    }
  }
}
