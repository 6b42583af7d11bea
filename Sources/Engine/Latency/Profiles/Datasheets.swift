/// Disks from their makers' datasheets: a random 4 KiB access's typical latency as the fixed
/// part and the sequential rate as the bandwidth. A datasheet's write latency is the
/// drive's alone; the file store's two fsyncs and rename are not in it (`cachelab
/// calibrate` measures them on a real disk).
extension LatencyProfile {
  /// Intel DC P4500 (PCIe 3.0 NVMe, 2 TB model).
  public static let datacenterNVMe = LatencyProfile(
    name: "datacenter-nvme",
    summary: "Intel DC P4500 2 TB NVMe SSD: random read 85 µs, write 20 µs; 3.2 GB/s read, 1.05 GB/s write",
    kind: .disk, spec: "disk-read=85us+3.2GB/s,disk-write=20us+1.05GB/s",
    source: "Lenovo, 'Intel P4500 Entry NVMe PCIe SSDs' product guide, Table 2 'Technical specifications' (p. 3)")

  /// Intel DC S4500 (SATA SSD).
  public static let datacenterSATASSD = LatencyProfile(
    name: "datacenter-sata-ssd",
    summary: "Intel DC S4500 SATA SSD: random read 110 µs, write 52 µs; 500 MB/s read, 490 MB/s write",
    kind: .disk, spec: "disk-read=110us+500MB/s,disk-write=52us+490MB/s",
    source: "Intel, 'Intel SSD Data Center S4500/S4600 Series Product Specification', front-page performance summary")
}
