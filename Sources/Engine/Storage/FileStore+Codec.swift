import CZlib
import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The record codec: the fixed header (magic, key, body length and checksum, every metadata
/// field, header checksum) and the deterministic body pattern with its checksum.
extension FileStore {
  struct Writer {
    var bytes: [UInt8] = []
    mutating func put<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
  }

  struct Reader {
    let bytes: [UInt8]
    var offset = 0
    mutating func get<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
      var value = T.zero
      withUnsafeMutableBytes(of: &value) { target in
        for index in 0..<target.count { target[index] = bytes[offset + index] }
      }
      offset += MemoryLayout<T>.size
      return T(littleEndian: value)
    }
  }

  static func header(_ key: UInt64, _ metadata: EntryMetadata, checksum: UInt64) -> [UInt8] {
    var out = Writer()
    out.put(magic)
    out.put(formatVersion)
    out.put(UInt16(headerLength))
    out.put(key)
    out.put(metadata.size)
    out.put(checksum)
    out.put(metadata.cost)
    out.put(metadata.version)
    out.put(metadata.contentClass.rawValue)
    out.put(metadata.response.status)
    out.put(metadata.etag)
    out.put(UInt8(metadata.etagIsWeak ? 1 : 0))
    out.put(metadata.response.expires)
    out.put(metadata.response.date)
    out.put(metadata.response.lastModified)
    out.put(metadata.response.age)
    out.put(metadata.response.requestTime)
    out.put(metadata.response.responseTime)
    let cc = metadata.response.cacheControl
    var flags: UInt16 = 0
    for (bit, on) in [
      cc.isPresent, cc.noStore, cc.noCache, cc.mustRevalidate, cc.proxyRevalidate, cc.isPublic, cc.isPrivate,
      cc.immutable, cc.isInvalid,
    ].enumerated() where on {
      flags |= 1 << bit
    }
    out.put(flags)
    out.put(cc.maxAge)
    out.put(cc.sharedMaxAge)
    out.put(cc.staleWhileRevalidate)
    out.put(cc.staleIfError)
    out.put(metadata.createdAt)
    out.put(metadata.modifiedAt)
    out.put(metadata.accessedAt)
    out.put(metadata.expiresAt)
    out.put(metadata.ttl)
    out.put(metadata.accessCount)
    out.put(UInt8(metadata.bodyLost ? 1 : 0) | (metadata.urlHasQuery ? 2 : 0) | (metadata.varyAll ? 4 : 0))
    precondition(out.bytes.count + 8 <= headerLength, "file header overflow")
    out.bytes += [UInt8](repeating: 0, count: headerLength - 8 - out.bytes.count)
    out.put(out.bytes.withUnsafeBytes { KeyHash.hash($0) })
    return out.bytes
  }

  /// Decodes a header; nil if it is not a valid CacheLab object header.
  static func decode(_ bytes: [UInt8]) -> (key: UInt64, checksum: UInt64, metadata: EntryMetadata)? {
    guard bytes.count >= headerLength else { return nil }
    var trailer = Reader(bytes: bytes, offset: headerLength - 8)
    let stored = trailer.get(UInt64.self)
    guard bytes[0..<(headerLength - 8)].withUnsafeBytes({ KeyHash.hash($0) }) == stored else { return nil }
    var input = Reader(bytes: bytes)
    guard input.get(UInt32.self) == magic, input.get(UInt16.self) == formatVersion,
      Int(input.get(UInt16.self)) == headerLength
    else { return nil }
    let key = input.get(UInt64.self)
    var request = Request(key: key, size: input.get(Int64.self))
    let checksum = input.get(UInt64.self)
    var attributes = RequestAttributes()
    attributes.cost = input.get(Int64.self)
    attributes.version = input.get(Int64.self)
    attributes.contentClass = ContentClass(rawValue: input.get(UInt8.self)) ?? .data
    attributes.status = input.get(Int16.self)
    attributes.etag = input.get(UInt64.self)
    attributes.etagIsWeak = input.get(UInt8.self) != 0
    attributes.expires = input.get(Int64.self)
    attributes.date = input.get(Int64.self)
    attributes.lastModified = input.get(Int64.self)
    attributes.age = input.get(Int64.self)
    let requestTime = input.get(Int64.self)
    let responseTime = input.get(Int64.self)
    let flags = input.get(UInt16.self)
    var cc = CacheControl()
    cc.isPresent = flags & 1 != 0
    cc.noStore = flags & 2 != 0
    cc.noCache = flags & 4 != 0
    cc.mustRevalidate = flags & 8 != 0
    cc.proxyRevalidate = flags & 16 != 0
    cc.isPublic = flags & 32 != 0
    cc.isPrivate = flags & 64 != 0
    cc.immutable = flags & 128 != 0
    cc.isInvalid = flags & 256 != 0
    cc.maxAge = input.get(Int64.self)
    cc.sharedMaxAge = input.get(Int64.self)
    cc.staleWhileRevalidate = input.get(Int64.self)
    cc.staleIfError = input.get(Int64.self)
    attributes.cacheControl = cc
    request.time = requestTime
    var metadata = EntryMetadata(
      request: request, attributes: attributes, cost: attributes.cost(for: request), now: requestTime, latency: 0)
    metadata.response.responseTime = responseTime
    metadata.createdAt = input.get(Int64.self)
    metadata.modifiedAt = input.get(Int64.self)
    metadata.accessedAt = input.get(Int64.self)
    metadata.expiresAt = input.get(Int64.self)
    metadata.ttl = input.get(Int64.self)
    metadata.accessCount = input.get(Int32.self)
    let bits = input.get(UInt8.self)
    metadata.bodyLost = bits & 1 != 0
    metadata.urlHasQuery = bits & 2 != 0
    metadata.varyAll = bits & 4 != 0
    return (key, checksum, metadata)
  }

  /// Fills the reusable buffer with the deterministic body pattern of (key, version).
  func fillPattern(_ key: UInt64, _ version: Int64) {
    var state = key ^ UInt64(bitPattern: version) &* 0x9e37_79b9_7f4a_7c15
    let words = buffer.count / 8
    for index in 0..<words {
      state = KeyHash.mix(state &+ UInt64(index))
      buffer.storeBytes(of: state, toByteOffset: index * 8, as: UInt64.self)
    }
  }

  /// Checksum of a body of `size` bytes made of the pattern repeated.
  func patternChecksum(_ size: Int64) -> UInt64 {
    var hash = BodyChecksum()
    var remaining = Int(size)
    while remaining > 0 {
      let chunk = min(remaining, buffer.count)
      hash.add(UnsafeRawBufferPointer(rebasing: buffer[0..<chunk]))
      remaining -= chunk
    }
    return hash.value
  }
}

/// Streaming CRC-32 (zlib's, optimised C whatever this build's configuration: a verified
/// read costs a few µs per 10 KiB, not the checksum's own loop) of an object's body.
struct BodyChecksum {
  private var state: UInt = 0

  /// Adds `bytes`; cost linear in their count, no allocation.
  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    state = crc32(state, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
  }

  var value: UInt64 { UInt64(state) }
}
