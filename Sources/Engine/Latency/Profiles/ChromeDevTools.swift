/// Chrome DevTools' network throttling presets. DevTools applies `latency` (the nominal RTT
/// times an adjustment factor) from request sent to response headers received, and
/// `download` in bytes per second (the nominal rate times a goodput factor); a profile
/// charges exactly those as the origin's round trip and bandwidth. None sets packet loss.
private let networkManager =
  "ChromeDevTools/devtools-frontend@00d120bf0e61feb60bf7c31cf879454577904b77 front_end/core/sdk/NetworkManager.ts"

extension LatencyProfile {
  /// DevTools "3G" (`Slow3GConditions`): 400 ms × 5, 500 kbit/s × 0.8.
  public static let chromeDevTools3G = LatencyProfile(
    name: "chrome-devtools-3g",
    summary: "Chrome DevTools '3G': 2000 ms per request (400 ms RTT × 5), 50,000 B/s down",
    kind: .network, spec: "origin=2000ms+50000B/s", source: "\(networkManager):481-493")

  /// DevTools "Slow 4G" (`Slow4GConditions`, "Fast 3G" before May 2024): 150 ms × 3.75,
  /// 1.6 Mbit/s × 0.9.
  public static let chromeDevToolsSlow4G = LatencyProfile(
    name: "chrome-devtools-slow-4g",
    summary: "Chrome DevTools 'Slow 4G': 562.5 ms per request (150 ms RTT × 3.75), 180,000 B/s down",
    kind: .network, spec: "origin=562.5ms+180000B/s", source: "\(networkManager):497-509")

  /// DevTools "Fast 4G" (`Fast4GConditions`): 60 ms × 2.75, 9 Mbit/s × 0.9.
  public static let chromeDevToolsFast4G = LatencyProfile(
    name: "chrome-devtools-fast-4g",
    summary: "Chrome DevTools 'Fast 4G': 165 ms per request (60 ms RTT × 2.75), 1,012,500 B/s down",
    kind: .network, spec: "origin=165ms+1012500B/s", source: "\(networkManager):511-523")
}
