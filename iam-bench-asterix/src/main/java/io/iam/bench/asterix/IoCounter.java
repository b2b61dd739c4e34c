package io.iam.bench.asterix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.MergeOperation;

/**
 * Every flush and merge the embedded NCs run, with the size of the component it wrote, per node and
 * index. {@link CountingNCApplication} puts {@link #wrap} around each NC's IO scheduler, through
 * which every LSM index of the node schedules its flushes and merges; each scheduled operation gets
 * a completion listener that adds its new component's size ({@code getComponentSize()}: every file
 * of the component, B-tree and Bloom filter) once it succeeded. One per JVM, as the embedded
 * instance.
 */
final class IoCounter {

  /** One index's counts on one node; the identifier is the index's relative directory. */
  static final class Counts {
    final String node;
    final AtomicLong flushes = new AtomicLong();
    final AtomicLong flushBytes = new AtomicLong();
    final AtomicLong merges = new AtomicLong();
    final AtomicLong mergeBytes = new AtomicLong();
    final AtomicLong runningFlushes = new AtomicLong();
    final AtomicLong runningMerges = new AtomicLong();
    /** The time from scheduling to completion of every merge, added up. */
    final AtomicLong mergeNanos = new AtomicLong();
    /** Every flushed and merged component's size, in order of completion. */
    final List<Long> flushSizes = Collections.synchronizedList(new ArrayList<>());
    final List<Long> mergeSizes = Collections.synchronizedList(new ArrayList<>());
    /** The components every completed merge read, and their bytes, added up. */
    final AtomicLong mergeInputs = new AtomicLong();
    final AtomicLong mergeInputBytes = new AtomicLong();

    Counts(String node) {
      this.node = node;
    }
  }

  private static final ConcurrentMap<String, Counts> BY_INDEX = new ConcurrentHashMap<>();

  private IoCounter() {}

  /** A scheduler that counts, around {@code scheduler}, the scheduler of node {@code node}. */
  static ILSMIOOperationScheduler wrap(ILSMIOOperationScheduler scheduler, String node) {
    return new ILSMIOOperationScheduler() {
      @Override
      public void scheduleOperation(ILSMIOOperation op) throws HyracksDataException {
        count(op, node);
        scheduler.scheduleOperation(op);
      }

      @Override
      public void completeOperation(ILSMIOOperation op) throws HyracksDataException {
        scheduler.completeOperation(op);
      }
    };
  }

  private static void count(ILSMIOOperation op, String node) {
    LSMIOOperationType type = op.getIOOpertionType();
    if (type != LSMIOOperationType.FLUSH && type != LSMIOOperationType.MERGE) {
      return;
    }
    boolean flush = type == LSMIOOperationType.FLUSH;
    Counts c = index(node, op.getIndexIdentifier());
    (flush ? c.runningFlushes : c.runningMerges).incrementAndGet();
    long scheduled = System.nanoTime();
    long[] inputs = new long[2];
    if (op instanceof MergeOperation merge) {
      for (ILSMComponent input : merge.getMergingComponents()) {
        inputs[0]++;
        inputs[1] += input instanceof ILSMDiskComponent d ? d.getComponentSize() : 0;
      }
    }
    op.addCompleteListener(done -> {
      try {
        ILSMDiskComponent component = done.getNewComponent();
        if (done.getStatus() == LSMIOOperationStatus.SUCCESS && component != null) {
          long size = component.getComponentSize();
          (flush ? c.flushSizes : c.mergeSizes).add(size);
          if (!flush) {
            c.mergeNanos.addAndGet(System.nanoTime() - scheduled);
            c.mergeInputs.addAndGet(inputs[0]);
            c.mergeInputBytes.addAndGet(inputs[1]);
          }
          (flush ? c.flushBytes : c.mergeBytes).addAndGet(size);
          (flush ? c.flushes : c.merges).incrementAndGet();
        }
      } finally {
        (flush ? c.runningFlushes : c.runningMerges).decrementAndGet();
      }
    });
  }

  /** The counts of one index on one node; empty counts if it has not flushed or merged. */
  static Counts index(String node, String identifier) {
    return BY_INDEX.computeIfAbsent(node + "|" + identifier, id -> new Counts(node));
  }

  /**
   * The counts of the indexes of one dataset on every node, added up.
   *
   * @param dataverse the dataverse's name
   * @param dataset the dataset's name
   * @return flushes, flush bytes, merges, merge bytes, running flushes, running merges
   */
  static long[] of(String dataverse, String dataset) {
    return of(dataverse, dataset, null);
  }

  /** As {@link #of(String, String)}, on one node ({@code null}: every node). */
  static long[] of(String dataverse, String dataset, String node) {
    long[] sum = new long[6];
    String part = "/" + dataverse + "/" + dataset + "/";
    BY_INDEX.forEach((key, c) -> {
      String id = key.substring(key.indexOf('|') + 1);
      if (("/" + id).contains(part) && (node == null || node.equals(c.node))) {
        sum[0] += c.flushes.get();
        sum[1] += c.flushBytes.get();
        sum[2] += c.merges.get();
        sum[3] += c.mergeBytes.get();
        sum[4] += c.runningFlushes.get();
        sum[5] += c.runningMerges.get();
      }
    });
    return sum;
  }
}
