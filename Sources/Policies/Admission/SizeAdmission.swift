import CacheCore

/// Admits objects strictly smaller than a threshold.
///
/// libCacheSim's `size.c` (parameter `size`, accepted here as an alias of `threshold`); with
/// no threshold every object is admitted. Memory: none per object.
public final class SizeAdmission: AdmissionPolicy {
  public static let descriptor = PolicyDescriptor(
    name: "size",
    summary: "admits objects strictly smaller than threshold bytes",
    origin: "libCacheSim admission/size.c",
    parameters: [
      ParameterSpec(
        "threshold", default: "9223372036854775807", .byteCount,
        help: "objects of this size or larger are not admitted", aliases: ["size"])
    ],
    memoryPerObject: "0 B",
    libCacheSim: .none(reason: "admission policy: Scripts/peer_diff.py compares it as create_size_admissioner"))

  let threshold: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    threshold = parameters.bytes("threshold")
  }

  public func admits(_ request: Request) -> Bool { request.size < threshold }

  public var storageBytes: Int { 0 }
}
