/// Lighthouse's throttling presets (kept in DevTools' Lantern since 2024). Its "Kbps" are
/// Kibit/s; with `--throttling-method=devtools` Lighthouse sends `requestLatencyMs` and
/// ⌊Kbps × 1024 / 8⌋ B/s (lighthouse@f8eac394 core/lib/emulation.js:129-136), which is what
/// the mobile profiles charge. The desktop preset sets only its simulated RTT and throughput.
private let constants =
  "ChromeDevTools/devtools-frontend@39d0a403df219807c485dadf050a5fa0b2054867 "
  + "front_end/models/trace/lantern/simulation/Constants.ts"

extension LatencyProfile {
  /// `mobileSlow4G`, Lighthouse's default: 150 ms × 3.75, 1.6 × 1024 kbit/s × 0.9.
  public static let lighthouseMobileSlow4G = LatencyProfile(
    name: "lighthouse-mobile-slow-4g",
    summary: "Lighthouse's default 'mobileSlow4G' as DevTools throttling: 562.5 ms per request, 188,743 B/s down",
    kind: .network, spec: "origin=562.5ms+188743B/s", source: "\(constants):13-20")

  /// `mobileRegular3G`: 300 ms × 3.75, 700 kbit/s × 0.9.
  public static let lighthouseMobileRegular3G = LatencyProfile(
    name: "lighthouse-mobile-regular-3g",
    summary: "Lighthouse 'mobileRegular3G' as DevTools throttling: 1125 ms per request, 80,640 B/s down",
    kind: .network, spec: "origin=1125ms+80640B/s", source: "\(constants):24-31")

  /// `desktopDense4G`: RTT 40 ms, 10 × 1024 kbit/s (simulated throttling only).
  public static let lighthouseDesktopDense4G = LatencyProfile(
    name: "lighthouse-desktop-dense-4g",
    summary: "Lighthouse desktop 'desktopDense4G': 40 ms RTT, 10,240 Kibit/s (its simulated-throttling figures)",
    kind: .network, spec: "origin=40ms+10240Kibit/s", source: "\(constants):34-41")
}
