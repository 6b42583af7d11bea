import CacheCore
import Synchronization

/// What an HTTP reader saw beyond the requests, kept only when a consumer asks: the URL text
/// behind each key (``isRecordingURLs``: `convert` writes URLs rather than key hashes) and
/// tallies of methods, statuses and hosts over every record (``isTallying``: `inspect`).
/// Memory: one string per distinct URL, one entry per distinct host, status and method while
/// asked, nothing otherwise (then a record costs two relaxed atomic loads); safe to read
/// while another thread reads the trace ahead.
public final class TrafficBook: Sendable {
  /// Records by method, response status (as the record states it: 304s stay 304s; 0 for no
  /// response) and host (lower-cased; "" for records without one).
  public struct Tallies: Sendable, Equatable {
    public var methods: [String: Int64] = [:]
    public var statuses: [Int: Int64] = [:]
    public var hosts: [String: Int64] = [:]
  }

  private let recordingURLs = Atomic<Bool>(false)
  private let tallying = Atomic<Bool>(false)
  private let texts = Mutex<[UInt64: String]>([:])
  private let counts = Mutex<Tallies>(Tallies())

  init() {}

  /// Whether URLs are being kept; set before the first read.
  public var isRecordingURLs: Bool {
    get { recordingURLs.load(ordering: .relaxed) }
    set { recordingURLs.store(newValue, ordering: .relaxed) }
  }

  /// Whether records are being tallied; set before the first read.
  public var isTallying: Bool {
    get { tallying.load(ordering: .relaxed) }
    set { tallying.store(newValue, ordering: .relaxed) }
  }

  /// Keeps `url` as the text of `key` while recording (the first text seen for a key wins).
  @inline(__always) func record(_ key: UInt64, _ url: @autoclosure () -> String) {
    guard recordingURLs.load(ordering: .relaxed) else { return }
    let text = url()
    texts.withLock { texts in
      if texts[key] == nil { texts[key] = text }
    }
  }

  /// Counts one record while tallying.
  @inline(__always) func tally(method: String, status: Int, host: @autoclosure () -> String) {
    guard tallying.load(ordering: .relaxed) else { return }
    let host = host()
    counts.withLock { counts in
      counts.methods[method, default: 0] += 1
      counts.statuses[status, default: 0] += 1
      counts.hosts[host, default: 0] += 1
    }
  }

  /// The URL whose hash is `key`, when it was recorded.
  public func text(of key: UInt64) -> String? { texts.withLock { $0[key] } }

  /// The tallies so far.
  public var tallies: Tallies { counts.withLock { $0 } }
}
