import CacheCore

/// The time stamps HTTP logs and captures write, as microseconds since the Unix epoch (UTC):
/// the Common Log Format's `10/Oct/2000:13:55:36 -0700`, ISO 8601 / RFC 3339 with any
/// fraction and zone, HTTP dates (RFC 9110 §5.6.7: IMF-fixdate, RFC 850, asctime), and epoch
/// seconds with a fraction (nginx `$msec`). Each parser is one pass over the bytes; nil for
/// text that is not such a time (or a time before 1970).
enum HTTPTime {
  /// The month (1–12) that three letters name in English, any case; nil for anything else.
  @inline(__always)
  static func month(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int? {
    switch UInt32(first | 0x20) << 16 | UInt32(second | 0x20) << 8 | UInt32(third | 0x20) {
    case 0x6A_616E: 1  // jan
    case 0x66_6562: 2  // feb
    case 0x6D_6172: 3  // mar
    case 0x61_7072: 4  // apr
    case 0x6D_6179: 5  // may
    case 0x6A_756E: 6  // jun
    case 0x6A_756C: 7  // jul
    case 0x61_7567: 8  // aug
    case 0x73_6570: 9  // sep
    case 0x6F_6374: 10  // oct
    case 0x6E_6F76: 11  // nov
    case 0x64_6563: 12  // dec
    default: nil
    }
  }

  /// `dd/Mon/yyyy:HH:MM:SS ±hhmm` (nginx `$time_local`, Apache `%t` without brackets).
  static func commonLog(_ text: UnsafeRawBufferPointer) -> Int64? {
    var scanner = Scanner(text)
    guard let day = scanner.digits(2), scanner.skip("/"), let month = scanner.month(), scanner.skip("/"),
      let year = scanner.digits(4), scanner.skip(":"), let clock = scanner.clock()
    else { return nil }
    var offset = 0
    if scanner.skip(" ") {
      guard let zone = scanner.zone() else { return nil }
      offset = zone
    }
    guard scanner.atEnd else { return nil }
    return epochMicros(year, month, day, clock, offsetMinutes: offset)
  }

  /// `yyyy-mm-ddTHH:MM:SS[.fraction][Z|±hh:mm|±hhmm]` (a space may stand for `T`; no zone
  /// means UTC).
  static func iso8601(_ text: UnsafeRawBufferPointer) -> Int64? {
    var scanner = Scanner(text)
    guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
      let day = scanner.digits(2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
      let clock = scanner.clock()
    else { return nil }
    var offset = 0
    if !scanner.atEnd {
      if scanner.skip("Z") || scanner.skip("z") {
        offset = 0
      } else {
        guard let zone = scanner.zone() else { return nil }
        offset = zone
      }
    }
    guard scanner.atEnd else { return nil }
    return epochMicros(year, month, day, clock, offsetMinutes: offset)
  }

  /// An HTTP date: `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit
  /// years below 70 are 20xx), or `Sun Nov  6 08:49:37 1994`.
  static func httpDate(_ text: UnsafeRawBufferPointer) -> Int64? {
    imfFixdate(text) ?? scannedHTTPDate(text)
  }

  /// ``httpDate(_:)`` by scanning, for every form (the IMF-fixdate fast path agrees with it).
  static func scannedHTTPDate(_ text: UnsafeRawBufferPointer) -> Int64? {
    var scanner = Scanner(text)
    scanner.skipLetters()
    if scanner.skip(",") {
      scanner.skipSpaces()
      guard let day = scanner.number(maximumDigits: 2) else { return nil }
      let dashed = scanner.skip("-")
      if !dashed { scanner.skipSpaces() }
      guard let month = scanner.month() else { return nil }
      guard dashed ? scanner.skip("-") : scanner.skip(" ") else { return nil }
      guard var year = scanner.number(maximumDigits: 4) else { return nil }
      if year < 100 { year += year < 70 ? 2000 : 1900 }
      scanner.skipSpaces()
      guard let clock = scanner.clock() else { return nil }
      scanner.skipSpaces()
      guard scanner.skip("GMT") || scanner.skip("UTC") || scanner.atEnd else { return nil }
      scanner.skipSpaces()
      guard scanner.atEnd else { return nil }
      return epochMicros(year, month, day, clock, offsetMinutes: 0)
    }
    // asctime: `Sun Nov  6 08:49:37 1994`
    scanner.skipSpaces()
    guard let month = scanner.month() else { return nil }
    scanner.skipSpaces()
    guard let day = scanner.number(maximumDigits: 2) else { return nil }
    scanner.skipSpaces()
    guard let clock = scanner.clock() else { return nil }
    scanner.skipSpaces()
    guard let year = scanner.digits(4), scanner.atEnd else { return nil }
    return epochMicros(year, month, day, clock, offsetMinutes: 0)
  }

  /// The preferred HTTP date, `Sun, 06 Nov 1994 08:49:37 GMT` exactly (what servers send),
  /// read at fixed places; nil for any other text, which ``scannedHTTPDate(_:)`` then reads.
  @inline(__always)
  private static func imfFixdate(_ text: UnsafeRawBufferPointer) -> Int64? {
    guard text.count == 29, text[3] == UInt8(ascii: ","), text[4] == 0x20, text[7] == 0x20, text[11] == 0x20,
      text[16] == 0x20, text[19] == UInt8(ascii: ":"), text[22] == UInt8(ascii: ":"), text[25] == 0x20,
      text[26] == UInt8(ascii: "G"), text[27] == UInt8(ascii: "M"), text[28] == UInt8(ascii: "T")
    else { return nil }
    for index in 0..<3 where !((text[index] | 0x20) >= 0x61 && (text[index] | 0x20) <= 0x7A) { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(text[index]) &- 0x30
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let day = number(5, 2), let month = month(text[8], text[9], text[10]), var year = number(12, 4),
      let hour = number(17, 2), let minute = number(20, 2), let second = number(23, 2)
    else { return nil }
    if year < 100 { year += year < 70 ? 2000 : 1900 }  // as the scanning path reads `0094`
    return epochMicros(year, month, day, Clock(hour: hour, minute: minute, second: second, micros: 0), offsetMinutes: 0)
  }

  /// Seconds since the epoch with an optional fraction of any precision (`1700000000.123`).
  static func epochSeconds(_ text: UnsafeRawBufferPointer) -> Int64? {
    ByteParsing.microseconds(text, unit: .s)
  }

  /// Hour, minute, second and microseconds of a day.
  struct Clock {
    var hour: Int
    var minute: Int
    var second: Int
    var micros: Int
  }

  /// Microseconds since 1970-01-01T00:00:00Z of a civil date and time at `offsetMinutes`
  /// east of UTC; nil for an impossible date or a time before the epoch. Days from the
  /// civil calendar by the era method (proleptic Gregorian).
  static func epochMicros(_ year: Int, _ month: Int, _ day: Int, _ clock: Clock, offsetMinutes: Int) -> Int64? {
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), clock.hour < 24,
      clock.minute < 60, clock.second <= 60
    else { return nil }
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + clock.hour * 3_600 + clock.minute * 60 + clock.second - offsetMinutes * 60
    guard seconds >= 0 else { return nil }
    let micros = Int64(seconds) * 1_000_000 + Int64(clock.micros)
    return micros < Request.timeLimit ? micros : nil
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// A cursor over the bytes of one time stamp.
  struct Scanner {
    let text: UnsafeRawBufferPointer
    var index = 0

    init(_ text: UnsafeRawBufferPointer) { self.text = text }

    var atEnd: Bool { index == text.count }

    /// Consumes `literal` (ASCII) if the text continues with it.
    mutating func skip(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard index + count <= text.count else { return false }
      for offset in 0..<count where text[index + offset] != literal.utf8Start[offset] { return false }
      index += count
      return true
    }

    mutating func skipSpaces() { while index < text.count, text[index] == 0x20 { index += 1 } }

    mutating func skipLetters() {
      while index < text.count, (text[index] | 0x20) >= 0x61, (text[index] | 0x20) <= 0x7A { index += 1 }
    }

    /// Exactly `count` decimal digits.
    mutating func digits(_ count: Int) -> Int? {
      guard index + count <= text.count else { return nil }
      var value = 0
      for offset in 0..<count {
        let digit = Int(text[index + offset]) - 0x30
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
      }
      index += count
      return value
    }

    /// One to `maximumDigits` decimal digits.
    mutating func number(maximumDigits: Int) -> Int? {
      var value = 0
      var count = 0
      while count < maximumDigits, index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
        value = value * 10 + Int(text[index] - 0x30)
        index += 1
        count += 1
      }
      return count > 0 ? value : nil
    }

    /// A three-letter English month name, any case: 1–12.
    mutating func month() -> Int? {
      guard index + 3 <= text.count else { return nil }
      guard let number = HTTPTime.month(text[index], text[index + 1], text[index + 2]) else { return nil }
      index += 3
      return number
    }

    /// `HH:MM:SS` and an optional fraction of any precision (kept to microseconds).
    mutating func clock() -> Clock? {
      guard let hour = digits(2), skip(":"), let minute = digits(2), skip(":"), let second = digits(2) else {
        return nil
      }
      var micros = 0
      if skip(".") || skip(",") {
        var places = 0
        while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
          if places < 6 { micros = micros * 10 + Int(text[index] - 0x30) }
          places += 1
          index += 1
        }
        guard places > 0 else { return nil }
        for _ in min(places, 6)..<6 { micros *= 10 }
      }
      return Clock(hour: hour, minute: minute, second: second, micros: micros)
    }

    /// `±hhmm` or `±hh:mm` (or `±hh`): minutes east of UTC.
    mutating func zone() -> Int? {
      guard index < text.count, text[index] == 0x2B || text[index] == 0x2D else { return nil }
      let sign = text[index] == 0x2D ? -1 : 1
      index += 1
      guard let hours = digits(2), hours < 24 else { return nil }
      var minutes = 0
      if !atEnd {
        _ = skip(":")
        guard let value = digits(2), value < 60 else { return nil }
        minutes = value
      }
      return sign * (hours * 60 + minutes)
    }
  }
}
