package io.iam.asterix.lsm;

import io.iam.asterix.lsm.RecordingIoCallbackFactory.IoEvent;
import io.iam.core.policy.MergePlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.api.dataflow.value.ITypeTraits;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.control.nc.io.DefaultDeviceResolver;
import org.apache.hyracks.control.nc.io.IOManager;
import org.apache.hyracks.data.std.accessors.IntegerBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.IntegerPointable;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleBuilder;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.dataflow.common.data.accessors.ITupleReference;
import org.apache.hyracks.dataflow.common.utils.TupleUtils;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.am.common.freepage.AppendOnlyLinkedMetadataPageManagerFactory;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.btree.utils.LSMBTreeUtil;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.IVirtualBufferCache;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.SynchronousSchedulerProvider;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.apache.hyracks.storage.am.lsm.common.impls.VirtualBufferCache;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.buffercache.BufferCache;
import org.apache.hyracks.storage.common.buffercache.ClockPageReplacementStrategy;
import org.apache.hyracks.storage.common.buffercache.DelayPageCleanerPolicy;
import org.apache.hyracks.storage.common.buffercache.HeapBufferAllocator;
import org.apache.hyracks.storage.common.compression.NoOpCompressorDecompressorFactory;
import org.apache.hyracks.storage.common.file.FileMapManager;
import org.apache.hyracks.util.trace.ITracer;

/**
 * A real Hyracks 0.3.8 LSM B-tree of (int key, int value) in this JVM, with the merge policy under
 * test and without AsterixDB: its own IO manager and disk buffer cache under one directory, two
 * small memory components, Hyracks' thread-counting operation tracker (the last writer out of a
 * full memory component schedules its flush) and the synchronous IO scheduler, so every flush, and
 * the merge its policy schedules, runs to its end inside the insert that filled the memory
 * component, one after the other. Component ids and the record of every flush and merge come from
 * {@link RecordingIoCallbackFactory}.
 *
 * <p>Keys are {@link #key(long) the i-th key} for i = 0, 1, 2, …: distinct, in scrambled order, so
 * merges interleave their inputs' keys; each key's value is {@link #value(int)}.
 *
 * <p>Not thread-safe; close it to release its files and threads (the directory is the caller's).
 */
public final class InProcessLsmBTree implements AutoCloseable {

  /** Bytes of one memory page. */
  public static final int PAGE_BYTES = 4096;
  /** Pages of each of the two memory components: a flush about every 2,500 inserts. */
  public static final int MEMORY_PAGES = 16;
  private static final int MEMORY_COMPONENTS = 2;
  /**
   * Bytes of one disk page. Every disk component has four pages of its own (metadata, B-tree and
   * Bloom filter headers) that a merge writes once for all its inputs. With 4 KiB disk pages they
   * were 16 KB of a 53 KB flush, and the write amplification Hyracks counted came out 11–25 % below
   * the cost model's (which sums a merge's inputs); with 256-byte pages they are about 2 % of a
   * flush, nearer AsterixDB's own ratio (128 KiB pages, memory components of many MiB).
   */
  private static final int DISK_PAGE_BYTES = 256;
  private static final int DISK_CACHE_PAGES = 4096;
  private static final int MAX_OPEN_FILES = 1000;
  /** Knuth's multiplicative constant: odd, so i ↦ i × K is a bijection of the ints. */
  private static final int SCRAMBLE = 0x9E3779B1;
  /** SCRAMBLE's inverse modulo 2^32. */
  private static final int UNSCRAMBLE = inverse(SCRAMBLE);

  private static final ITypeTraits[] TYPE_TRAITS = {
      IntegerPointable.TYPE_TRAITS, IntegerPointable.TYPE_TRAITS};
  private static final IBinaryComparatorFactory[] KEY_COMPARATORS = {
      IntegerBinaryComparatorFactory.INSTANCE};
  private static final int[] BLOOM_FILTER_KEY_FIELDS = {0};

  private final IOManager ioManager;
  private final BufferCache diskCache;
  private final RecordingIoCallbackFactory io;
  private final LSMBTree tree;
  private final ILSMIndexAccessor accessor;
  private final ArrayTupleBuilder builder = new ArrayTupleBuilder(2);
  private final ArrayTupleReference tuple = new ArrayTupleReference();
  private long inserted;

  /**
   * Creates and activates an empty index in {@code dir}.
   *
   * @param componentIds whether flushes are numbered as AsterixDB numbers them (see {@link
   *     RecordingIoCallbackFactory})
   */
  public InProcessLsmBTree(Path dir, ILSMMergePolicy policy, boolean componentIds)
      throws HyracksDataException {
    ioManager = new IOManager(List.of(new IODeviceHandle(dir.toFile(), "iodev")),
        new DefaultDeviceResolver(), 1, 10);
    diskCache = new BufferCache(ioManager,
        new ClockPageReplacementStrategy(new HeapBufferAllocator(), DISK_PAGE_BYTES, DISK_CACHE_PAGES),
        new DelayPageCleanerPolicy(1000), new FileMapManager(), MAX_OPEN_FILES, 10, Thread::new);
    List<IVirtualBufferCache> memory = new ArrayList<>();
    for (int i = 0; i < MEMORY_COMPONENTS; i++) {
      memory.add(new VirtualBufferCache(new HeapBufferAllocator(), PAGE_BYTES, MEMORY_PAGES));
    }
    io = new RecordingIoCallbackFactory(componentIds);
    tree = LSMBTreeUtil.createLSMTree(ioManager, memory,
        ioManager.resolveAbsolutePath(dir.resolve("index").toString()), diskCache, TYPE_TRAITS,
        KEY_COMPARATORS, BLOOM_FILTER_KEY_FIELDS, 0.01, policy, new ThreadCountingTracker(),
        SynchronousSchedulerProvider.INSTANCE.getIoScheduler(null), io,
        NoOpPageWriteCallbackFactory.INSTANCE, true, null, null, null, null, true,
        AppendOnlyLinkedMetadataPageManagerFactory.INSTANCE, false, ITracer.NONE,
        NoOpCompressorDecompressorFactory.INSTANCE, true, null, null);
    tree.create();
    tree.activate();
    accessor = tree.createAccessor(NoOpIndexAccessParameters.INSTANCE);
  }

  /** The i-th key inserted. */
  public static int key(long i) {
    return (int) i * SCRAMBLE;
  }

  /** The value stored with {@code key}. */
  public static int value(int key) {
    return Integer.rotateLeft(key, 13) ^ 0x5bd1e995;
  }

  /** Which insert wrote {@code key}: the i with {@code key(i) == key}, in [0, 2^32). */
  public static long insertNumber(int key) {
    return Integer.toUnsignedLong(key * UNSCRAMBLE);
  }

  /**
   * Inserts the next keys until the index has flushed {@code flushes} times in all, or {@code
   * maxInserts} more keys went in first.
   *
   * @return the number of flushes so far
   */
  public int insertUntilFlushes(int flushes, long maxInserts) throws HyracksDataException {
    long limit = inserted + maxInserts;
    while (flushCount() < flushes && inserted < limit) {
      int k = key(inserted);
      TupleUtils.createIntegerTuple(builder, tuple, k, value(k));
      accessor.insert(tuple);
      inserted++;
    }
    return flushCount();
  }

  /**
   * The most inserts one memory component can take: its bytes over the bytes of a tuple's two int
   * fields. An upper bound for {@link #insertUntilFlushes}.
   */
  public static long maxInsertsPerFlush() {
    return (long) PAGE_BYTES * MEMORY_PAGES / (2 * Integer.BYTES);
  }

  /** Keys inserted so far. */
  public long inserted() {
    return inserted;
  }

  public int flushCount() {
    return (int) io.events().stream().filter(IoEvent::isFlush).count();
  }

  /** Every finished flush and merge so far, in order. */
  public List<IoEvent> events() {
    return io.events();
  }

  /** The inputs of every merge scheduled so far, oldest first, in the order scheduled. */
  public List<List<ILSMDiskComponent>> scheduledMerges() {
    return io.scheduledMerges();
  }

  public LSMBTree index() {
    return tree;
  }

  /**
   * What the index did after each flush, from the record of flushes and merges: {@link
   * MergePlan#none()}, or the merge that followed it, by position in the stack of disk components
   * as it stood (0 = oldest), as iam-core's simulator reports its decisions.
   *
   * @throws IllegalStateException if a merge took components that were not contiguous, or two
   *     merges followed one flush
   */
  public List<MergePlan> plansPerFlush() {
    List<ILSMDiskComponent> stack = new ArrayList<>();
    List<MergePlan> plans = new ArrayList<>();
    for (IoEvent e : events()) {
      if (e.isFlush()) {
        stack.add(e.output());
        plans.add(MergePlan.none());
        continue;
      }
      int from = indexOf(stack, e.inputs().get(0));
      int to = from + e.inputs().size() - 1;
      if (from < 0 || to >= stack.size()
          || !sameComponents(stack.subList(from, to + 1), e.inputs())) {
        throw new IllegalStateException("merge of components not contiguous in " + stack);
      }
      if (plans.isEmpty() || !plans.get(plans.size() - 1).isNone()) {
        throw new IllegalStateException("a merge without a flush of its own at flush " + plans.size());
      }
      plans.set(plans.size() - 1, MergePlan.merge(from, to));
      stack.subList(from, to + 1).clear();
      stack.add(from, e.output());
    }
    return plans;
  }

  /** How many flushes each disk component holds, oldest first, from the record. */
  public List<Long> flushesPerComponent() {
    Map<ILSMDiskComponent, Long> counts = new IdentityHashMap<>();
    for (IoEvent e : events()) {
      long n = e.isFlush() ? 1 : e.inputs().stream().mapToLong(counts::remove).sum();
      counts.put(e.output(), n);
    }
    List<Long> oldestFirst = new ArrayList<>();
    List<ILSMDiskComponent> newestFirst = tree.getDiskComponents();
    for (int i = newestFirst.size() - 1; i >= 0; i--) {
      oldestFirst.add(counts.get(newestFirst.get(i)));
    }
    return oldestFirst;
  }

  /** A visitor of the index's tuples in key order. */
  @FunctionalInterface
  public interface TupleVisitor {
    void visit(int key, int value);
  }

  /** Scans the whole index (memory and disk components), in key order. */
  public void scan(TupleVisitor visitor) throws HyracksDataException {
    IIndexCursor cursor = accessor.createSearchCursor(false);
    try {
      accessor.search(cursor, new RangePredicate(null, null, true, true, null, null));
      try {
        while (cursor.hasNext()) {
          cursor.next();
          ITupleReference t = cursor.getTuple();
          visitor.visit(IntegerPointable.getInteger(t.getFieldData(0), t.getFieldStart(0)),
              IntegerPointable.getInteger(t.getFieldData(1), t.getFieldStart(1)));
        }
      } finally {
        cursor.close();
      }
    } finally {
      cursor.destroy();
    }
  }

  /** Deactivates the index without a last flush, destroys its files and stops the caches. */
  @Override
  public void close() throws Exception {
    try {
      tree.deactivate(false);
      tree.destroy();
    } finally {
      diskCache.close();
      ioManager.close();
    }
  }

  private static int indexOf(List<ILSMDiskComponent> list, ILSMDiskComponent c) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == c) {
        return i;
      }
    }
    return -1;
  }

  private static boolean sameComponents(List<ILSMDiskComponent> a, List<ILSMDiskComponent> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** The inverse of an odd int modulo 2^32, by Newton's iteration. */
  private static int inverse(int odd) {
    int x = odd;
    for (int i = 0; i < 5; i++) {
      x *= 2 - odd * x;
    }
    return x;
  }
}
