import CacheCore

/// Writes CacheLab's CSV with every row kept, the format the `cachelab` reader takes back
/// with puts, deletes, TTLs and lifecycle events intact: `time,op,key,size,ttl,event` (time
/// and TTL in seconds, TTL empty when the request has none, event named on event rows), and
/// with `httpColumns` every attribute an HTTP trace carries (`class`, `version`,
/// `cache_control`, `expires`, `date`, `last_modified`, `age`, `etag`, `status`, `latency`,
/// `vary`, `authorization`, `set_cookie`, `stored_size`, `cost`, `observed`, and `url_length` where a key's
/// text is not as long as the URL it stands for), so that the written file replays exactly
/// as its source. Streams; memory is what ``KeyNames`` keeps.
public final class CacheLabTraceWriter: TraceWriter {
  private let file: AtomicFileWriter
  private let names: KeyNames?

  /// How keys and entity tags are written: as the URLs an HTTP reader recorded (else the key's
  /// decimal hash), optionally anonymized. Memory: one string per distinct anonymized URL.
  public final class KeyNames {
    private let book: TrafficBook?
    private var anonymizer: URLAnonymizer?
    private var anonymized: [UInt64: String] = [:]

    /// Names from `book` (the reader's), anonymized by `anonymizer` when given.
    public init(book: TrafficBook?, anonymizer: URLAnonymizer?) {
      self.book = book
      self.anonymizer = anonymizer
    }

    /// The key's text, or nil to write the key's hash.
    func key(_ key: UInt64) -> String? {
      guard let url = book?.text(of: key) else { return nil }
      guard anonymizer != nil else { return url }
      if let text = anonymized[key] { return text }
      let text = anonymizer!.anonymize(url)
      anonymized[key] = text
      return text
    }

    /// An entity tag known by its hash: a token that is equal exactly when the tags were.
    func etag(_ hash: UInt64) -> String {
      anonymizer?.validator(hash) ?? "e" + String(hash, radix: 16)
    }
  }

  /// Opens `path` for writing: with `httpColumns`, every HTTP attribute is written too.
  public init(path: String, httpColumns: Bool = false, names: KeyNames? = nil) throws(FileError) {
    file = try AtomicFileWriter(path: path)
    self.names = httpColumns ? names ?? KeyNames(book: nil, anonymizer: nil) : nil
    var header = "time,op,key,size,ttl,event"
    if httpColumns {
      header +=
        ",class,version,cache_control,expires,date,last_modified,age,etag,status,latency,vary,authorization,set_cookie,stored_size,cost,observed,url_length"
    }
    try file.write(header + "\n")
  }

  public var keepsEveryRow: Bool { true }

  public func write(_ request: Request) throws(FileError) { try write(request, attributes: nil) }

  public func write(_ request: Request, attributes: RequestAttributes?) throws(FileError) {
    try file.writeSeconds(request.time)
    switch request.operation {
    case .get: try file.write(",get,")
    case .put: try file.write(",put,")
    case .delete: try file.write(",delete,")
    case .origin: try file.write(",origin,")
    case .event:
      try file.write(",event,,0,,\(attributes?.event.name ?? "")")
      if names != nil { try file.write(String(repeating: ",", count: 16)) }
      try file.writeByte(0x0A)
      return
    }
    let named = names?.key(request.key)
    if let named { try file.write(CSVCell.quoted(named)) } else { try file.writeDecimal(request.key) }
    try file.writeByte(0x2C)
    try file.writeDecimal(request.size)
    try file.writeByte(0x2C)
    if let ttl = attributes?.ttl, ttl > 0 { try file.writeSeconds(ttl) }
    try file.writeByte(0x2C)
    if let names {
      try file.writeByte(0x2C)  // after the (empty) event cell
      let row = attributes ?? RequestAttributes()
      try writeHTTPColumns(row, names: names)
      try file.writeByte(0x2C)
      // The URL's own length where the written key is not that URL (anonymized, or a hash).
      if row.url.scheme != .none, row.url.length != Int32(clamping: named?.utf8.count ?? -1) {
        try file.writeDecimal(Int64(row.url.length))
      }
    }
    try file.writeByte(0x0A)
  }

  /// `class,version,…,observed` for one row (empty cells where a value is absent).
  private func writeHTTPColumns(_ row: RequestAttributes, names: KeyNames) throws(FileError) {
    /// A time cell in seconds; never below the epoch (the reader takes no sign).
    func time(_ micros: Int64) throws(FileError) {
      if micros != RequestAttributes.absent, micros != RequestAttributes.invalidDate {
        try file.writeSeconds(max(0, micros))
      }
      try file.writeByte(0x2C)
    }
    try file.write(row.contentClass.name + "," + (row.version >= 0 ? String(row.version) : ""))
    try file.write("," + CSVCell.quoted(row.cacheControl.headerValue) + ",")
    if row.expires == RequestAttributes.invalidDate { try file.write("invalid") }
    try time(row.expires)
    try time(row.date)
    try time(row.lastModified)
    try file.write(row.age >= 0 ? String(row.age) + "," : ",")
    if row.etag != 0 { try file.write((row.etagIsWeak ? "W/" : "") + names.etag(row.etag)) }
    try file.write("," + String(row.status) + ",")
    try time(row.latency >= 0 ? row.latency : RequestAttributes.absent)
    let flags = [row.varyAll ? "*" : row.vary ? "1" : "", row.authorization ? "1" : "", row.setCookie ? "1" : ""]
    let sizes = [row.storedSize >= 0 ? String(row.storedSize) : "", row.cost >= 0 ? String(row.cost) : ""]
    try file.write((flags + sizes + [row.observed.csvName]).joined(separator: ","))
  }

  public func commit() throws(FileError) { try file.commit() }
}
