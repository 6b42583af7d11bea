import CacheCore

/// HTTP Archive (HAR 1.1 and 1.2) from any producer — Chrome, Firefox, Safari, mitmproxy,
/// Charles, Proxyman, WebPageTest: the `log.entries` array is read one entry at a time
/// through a streaming JSON reader, so memory stays bounded whatever the file's size
/// (response bodies are skipped unread). Each entry is one ``HTTPRecord``; which size field
/// and which browser-cache marker count depends on the producer (Traces/README.md). A file
/// that ends before its JSON does is an error at the end, never a shorter run.
final class HARReader: TraceReader {
  let path: String
  var traits: TraceTraits { HTTPTraffic.traits }
  private(set) var requestsRead: Int64 = 0
  var knownRequestCount: Int64? { nil }
  private var stream: JSONStream
  private var traffic = HTTPTraffic()
  private var producer = HARProducer.other
  private var entriesStarted = false
  private var entriesEnded = false
  private var entryNumber = 0

  init(path: String) throws(TraceError) {
    self.path = path
    let file = try ChunkedFile(path: path)
    stream = JSONStream(file)
    try skipByteOrderMark(file)
    try located { (reader: HARReader) throws(JSONStreamError) in try reader.findEntries() }
  }

  var trafficBook: TrafficBook? { traffic.book }

  var notes: String? {
    let source = "\(producer.name) HAR: sizes from \(producer.sizeField)"
    return [source, traffic.summary].compactMap { $0 }.joined(separator: ", ")
  }

  private func skipByteOrderMark(_ file: ChunkedFile) throws(TraceError) {
    while file.available < 3, try file.refill() {}
    if file.available >= 3, file.cursor.load(as: UInt8.self) == 0xEF,
      file.cursor.load(fromByteOffset: 1, as: UInt8.self) == 0xBB,
      file.cursor.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
    {
      file.start += 3
    }
  }

  /// Runs `body`, turning a JSON failure into a `TraceError` at `path:line:column`.
  private func located(_ body: (HARReader) throws(JSONStreamError) -> Void) throws(TraceError) {
    do throws(JSONStreamError) {
      try body(self)
    } catch {
      switch error {
      case .file(let failure): throw failure
      case .syntax(let failure):
        throw TraceError(
          .malformedRecord, path: path, record: Int64(failure.line), "column \(failure.column): \(failure.message)")
      }
    }
  }

  /// Walks `{ "log": { …, "entries": [` and stops at the first entry; the producer's name
  /// (`log.creator.name`) is read on the way when it comes first, as every producer writes it.
  private func findEntries() throws(JSONStreamError) {
    try stream.expect(UInt8(ascii: "{"), "a HAR file: a JSON object")
    var first = true
    while let key = try stream.nextKey(first: first) {
      first = false
      guard key == "log" else {
        try stream.skipValue()
        continue
      }
      try stream.expect(UInt8(ascii: "{"), "an object for log")
      var firstInLog = true
      while let name = try stream.nextKey(first: firstInLog) {
        firstInLog = false
        switch name {
        case "creator", "browser":
          try stream.object { (stream, field) throws(JSONStreamError) in
            guard field == "name" else { return try stream.skipValue() }
            // `browser` names the producer only where `creator` did not (a string is read
            // whole either way: the value is consumed before it is judged).
            if let value = try stream.optionalString(), self.producer == .other || name == "creator" {
              self.producer = HARProducer(creator: value)
            }
          }
        case "entries":
          try stream.expect(UInt8(ascii: "["), "an array for log.entries")
          entriesStarted = true
          return
        default: try stream.skipValue()
        }
      }
      throw .syntax(stream.failure("the HAR's log has no entries array"))
    }
    throw .syntax(stream.failure("the file has no log object: is it a HAR file?"))
  }

  /// After the last entry: the rest of `log` and of the file must be there and well formed.
  private func finish() throws(JSONStreamError) {
    while (try stream.nextKey(first: false)) != nil { try stream.skipValue() }
    while (try stream.nextKey(first: false)) != nil { try stream.skipValue() }
    if try stream.peekValue() != nil { throw .syntax(stream.failure("text after the end of the HAR's JSON")) }
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    batch.removeAll()
    guard !entriesEnded else { return false }
    let attributes = batch.attributesForWriting()
    var count = 0
    try located { (reader: HARReader) throws(JSONStreamError) in
      try batch.refill { (requests) throws(JSONStreamError) -> Int in
        while count < requests.count {
          guard try reader.stream.nextElement(first: reader.entryNumber == 0) else {
            reader.entriesEnded = true
            try reader.finish()
            break
          }
          reader.entryNumber += 1
          let record = try reader.entry()
          var request = Request(key: 0, size: 0)
          var row = RequestAttributes()
          if reader.traffic.map(record, into: &request, attributes: &row) {
            requests[count] = request
            attributes[count] = row
            count += 1
          }
        }
        return count
      }
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }

  /// One entry of `log.entries`.
  private func entry() throws(JSONStreamError) -> HTTPRecord {
    var entry = HAREntry()
    try stream.object { (stream, key) throws(JSONStreamError) in
      switch key {
      case "startedDateTime":
        let text = try stream.string()
        guard let time = HAREntry.time(text) else {
          throw .syntax(stream.failure("startedDateTime '\(text)' is not an ISO 8601 time"))
        }
        entry.started = time
      case "request": try entry.readRequest(&stream)
      case "response": try entry.readResponse(&stream)
      case "timings": try entry.readTimings(&stream)
      case "serverIPAddress": entry.serverAddress = try stream.optionalString()
      case "_fromCache": entry.fromCache = try stream.optionalString()
      case "_fetchType": entry.fetchType = try stream.optionalString()
      case "_objectSizeUncompressed": entry.objectSizeUncompressed = try stream.number()
      default: try stream.skipValue()
      }
    }
    guard entry.started != nil else { throw .syntax(stream.failure("entry \(entryNumber) has no startedDateTime")) }
    return entry.record(producer: producer)
  }
}

extension TraceFormat {
  /// `har`: HTTP Archive captures.
  static let har = TraceFormat(
    name: "har",
    summary: "HTTP Archive (HAR 1.1/1.2) from browsers, proxies and WebPageTest, read entry by entry",
    parameters: [HTTPTraffic.reorderWindow],
    fileSuffixes: [".har"],
    traits: HTTPTraffic.traits,
    sniff: HARReader.sniff
  ) { path, parameters throws(TraceError) in
    TimeOrderedReader(try HARReader(path: path), parameters: parameters)
  }
}

extension HARReader {
  /// A HAR starts with `{` and names `"log"` and `"entries"` (or at least `"log"` with a
  /// `"version"` and `"creator"`) near the top.
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    var bytes = sample.bytes[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
      first == UInt8(ascii: "{")
    else { return nil }
    let text = String(decoding: bytes.prefix(1 << 14), as: UTF8.self)
    guard text.contains("\"log\""), text.contains("\"creator\"") || text.contains("\"entries\"") else { return nil }
    return SniffVerdict(3, "a JSON object with a HAR log")
  }
}
