import Analysis
import CacheCore
import Reports
import Traces

/// The HTTP section of `cachelab inspect`: cacheability, freshness, validators, classes,
/// methods, statuses, top hosts, request rate and observed outcomes, as text and CSV rows.
extension Inspect {
  /// How many hosts the table lists (the CSV lists them all).
  static let topHosts = 10

  /// Rows of (section, name, value, share of requests) that text and CSV both show.
  static func httpRows(_ http: HTTPInspection) -> [(section: String, name: String, count: Int64)] {
    var rows: [(String, String, Int64)] = [
      ("cache_control", "present", http.cacheControl), ("cache_control", "no-store", http.noStore),
      ("cache_control", "private", http.isPrivate), ("cache_control", "no-cache", http.noCache),
      ("cache_control", "must-revalidate", http.mustRevalidate), ("cache_control", "immutable", http.immutable),
      ("cache_control", "s-maxage", http.sharedMaxAge),
      ("cache_control", "stale-while-revalidate", http.staleWhileRevalidate),
    ]
    for (name, count) in zip(HTTPInspection.lifetimeClasses, http.lifetimes) { rows.append(("freshness", name, count)) }
    rows.append(("freshness", "heuristic (Last-Modified only)", http.heuristic))
    rows.append(("freshness", "none stated", http.noFreshness))
    for (name, count) in zip(HTTPInspection.validatorClasses, http.validators) {
      rows.append(("validators", name, count))
    }
    rows.append(("headers", "Vary", http.vary))
    rows.append(("headers", "credentials", http.authorization))
    for contentClass in ContentClass.allCases {
      rows.append(("class", contentClass.name, http.contentClasses[Int(contentClass.rawValue)]))
    }
    return rows
  }

  static func percent(_ count: Int64, of total: Int64) -> String {
    total > 0 ? Decimal.fixed(Double(count) * 100 / Double(total), 2) + " %" : "n/a"
  }

  /// Entries of `counts` by count, largest first (ties by name).
  static func ranked<Key: Comparable>(_ counts: [Key: Int64]) -> [(Key, Int64)] {
    counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { ($0.key, $0.value) }
  }

  static func httpText(_ http: HTTPInspection) -> String {
    var text = "\n" + httpHeadline(http) + "\n" + TableReport.align(httpTable(http)) + httpObserved(http) + "\n"
    let (length, rate) = rateRows(http)
    text += "\nrequest rate per \(Self.duration(length)) of trace time\n" + TableReport.align(rate)
    return text
  }

  /// `HTTP: N requests[, M invalidations …]`.
  static func httpHeadline(_ http: HTTPInspection) -> String {
    "HTTP: \(http.requests) requests"
      + (http.invalidations > 0 ? ", \(http.invalidations) invalidations (POST/PUT/PATCH/DELETE)" : "")
  }

  /// The HTTP table: a title row per section, then (name, count, share) rows.
  static func httpTable(_ http: HTTPInspection) -> [[String]] {
    let total = http.requests
    let titles = [
      "cache_control": "Cache-Control", "freshness": "stated lifetime (max-age, else Expires − Date)",
      "validators": "validators", "headers": "other headers", "class": "content class",
    ]
    var rows: [[String]] = []
    var section = ""
    for row in httpRows(http) where row.count > 0 || row.section == "freshness" || row.section == "validators" {
      if row.section != section {
        section = row.section
        rows.append([titles[section] ?? section, "", ""])
      }
      rows.append(["  " + row.name, String(row.count), percent(row.count, of: total)])
    }
    if let tallies = http.tallies {
      let records = tallies.methods.values.reduce(0, +)
      rows.append(["methods (every record)", "", ""])
      for (method, count) in ranked(tallies.methods) {
        rows.append(["  " + method, String(count), percent(count, of: records)])
      }
      rows.append(["statuses (as recorded)", "", ""])
      for (status, count) in tallies.statuses.sorted(by: { $0.key < $1.key }) {
        rows.append([
          "  " + (status == 0 ? "0 (no response)" : String(status)), String(count), percent(count, of: records),
        ])
      }
      let hosts = ranked(tallies.hosts)
      rows.append(["hosts (\(hosts.count), by records)", "", ""])
      for (host, count) in hosts.prefix(topHosts) {
        rows.append([
          "  " + (host.isEmpty ? "(none)" : TerminalText.safe(host, cutting: true)), String(count),
          percent(count, of: records),
        ])
      }
      if hosts.count > topHosts {
        let rest = hosts.dropFirst(topHosts).reduce(Int64(0)) { $0 + $1.1 }
        rows.append(["  \(hosts.count - topHosts) others", String(rest), percent(rest, of: records)])
      }
    }
    return rows
  }

  /// The `observed: …` sentence: what the trace's own caches did.
  static func httpObserved(_ http: HTTPInspection) -> String {
    let known = http.observedHits + http.observedMisses
    var text = "observed: "
    if known > 0 {
      text +=
        "the trace's own cache served \(http.observedHits) of \(known) requests whose record says (\(percent(http.observedHits, of: known)))"
    } else {
      text += "no record says what a cache on the path did"
    }
    if http.observedClientHits > 0 {
      text +=
        "; the recording client's cache answered \(http.observedClientHits) (\(percent(http.observedClientHits, of: http.requests)))"
    }
    return text
  }

  /// The request-rate table (with a header row) and its interval length in seconds.
  static func rateRows(_ http: HTTPInspection) -> (seconds: Int64, rows: [[String]]) {
    let known = http.observedHits + http.observedMisses
    let (length, intervals) = http.rate()
    var rate: [[String]] = [["from", "requests", "req/s"] + (known > 0 ? ["observed hit ratio"] : [])]
    for interval in intervals {
      var row = [
        Self.duration(interval.start), String(interval.requests),
        Decimal.fixed(Double(interval.requests) / Double(length), 2),
      ]
      if known > 0 {
        row.append(interval.observedKnown > 0 ? percent(interval.observedHits, of: interval.observedKnown) : "–")
      }
      rate.append(row)
    }
    return (length, rate)
  }

  /// `seconds` as the largest whole unit: `90 s`, `10 min`, `6 h`, `2 d`.
  static func duration(_ seconds: Int64) -> String {
    for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("min", 60)] where seconds >= size && seconds % size == 0 {
      return "\(seconds / size) \(unit)"
    }
    return "\(seconds) s"
  }

  /// CSV rows (section,name,low,high,value) of the HTTP section.
  static func httpCSV(_ http: HTTPInspection) -> String {
    var text = "http,requests,,,\(http.requests)\nhttp,invalidations,,,\(http.invalidations)\n"
    for row in httpRows(http) { text += "http_\(row.section),\(CSVCell.quoted(row.name)),,,\(row.count)\n" }
    if let tallies = http.tallies {
      for (method, count) in ranked(tallies.methods) { text += "http_method,\(CSVCell.quoted(method)),,,\(count)\n" }
      for (status, count) in tallies.statuses.sorted(by: { $0.key < $1.key }) {
        text += "http_status,\(status),,,\(count)\n"
      }
      for (host, count) in ranked(tallies.hosts) { text += "http_host,\(CSVCell.quoted(host)),,,\(count)\n" }
    }
    text +=
      "http_observed,upstream_hits,,,\(http.observedHits)\nhttp_observed,upstream_misses,,,\(http.observedMisses)\n"
    text += "http_observed,client_hits,,,\(http.observedClientHits)\n"
    let (length, intervals) = http.rate()
    for interval in intervals {
      text += "http_rate,requests,\(interval.start),\(interval.start + length),\(interval.requests)\n"
      text += "http_rate,observed_hits,\(interval.start),\(interval.start + length),\(interval.observedHits)\n"
      text += "http_rate,observed_known,\(interval.start),\(interval.start + length),\(interval.observedKnown)\n"
    }
    return text
  }
}
