/// A TOML date, time or date-time: an offset date-time (`1979-05-27T07:32:00Z`), a local
/// date-time, a local date or a local time, as written (fractional seconds to nanoseconds).
public struct TOMLDateTime: Equatable, Sendable, CustomStringConvertible {
  /// Year, month and day; nil for a local time.
  public var date: (year: Int, month: Int, day: Int)?
  /// Hour, minute, second and nanoseconds; nil for a local date.
  public var time: (hour: Int, minute: Int, second: Int, nanosecond: Int)?
  /// Minutes east of UTC (`Z` is 0); nil for local (zone-less) values.
  public var offsetMinutes: Int?

  public static func == (lhs: TOMLDateTime, rhs: TOMLDateTime) -> Bool {
    lhs.date?.year == rhs.date?.year && lhs.date?.month == rhs.date?.month && lhs.date?.day == rhs.date?.day
      && lhs.time?.hour == rhs.time?.hour && lhs.time?.minute == rhs.time?.minute
      && lhs.time?.second == rhs.time?.second && lhs.time?.nanosecond == rhs.time?.nanosecond
      && lhs.offsetMinutes == rhs.offsetMinutes && (lhs.date == nil) == (rhs.date == nil)
      && (lhs.time == nil) == (rhs.time == nil)
  }

  /// RFC 3339 form: `1979-05-27T07:32:00.5-07:00`, `1979-05-27`, `07:32:00`.
  public var description: String {
    var text = ""
    if let date { text = pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) }
    if let time {
      if date != nil { text += "T" }
      text += pad(time.hour, 2) + ":" + pad(time.minute, 2) + ":" + pad(time.second, 2)
      if time.nanosecond > 0 {
        var fraction = pad(time.nanosecond, 9)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        text += "." + fraction
      }
    }
    if let offsetMinutes {
      if offsetMinutes == 0 {
        text += "Z"
      } else {
        text +=
          (offsetMinutes < 0 ? "-" : "+") + pad(abs(offsetMinutes) / 60, 2) + ":" + pad(abs(offsetMinutes) % 60, 2)
      }
    }
    return text
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
