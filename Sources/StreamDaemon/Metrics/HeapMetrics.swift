import CMalloc
import Metrics

/// The daemon's heap in use, for a metrics reader: what its allocations hold now (glibc's `mallinfo2`).
///
/// RSS also counts the code mapped in and the free pages the allocator keeps after a peak, which come and go with
/// the machine and the allocator's habits; the heap in use is what a leak makes grow.
enum HeapMetrics {
    private static let inUse = Gauge(label: "audiostream_heap_in_use_bytes")

    /// Sets the gauge: the bytes allocated in every arena, and in chunks mapped on their own.
    static func update() {
        let heap = mallinfo2()
        inUse.record(Int(heap.uordblks + heap.hblkhd))
    }
}
