package io.iam.core.tree.layout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * iam-core's simulator of a node tree kept in files, as a host such as the HBase store engine
 * keeps it: every memtable flush is cut by {@link TreePlanner#flushRoute}, then {@link
 * TreePlanner#next} runs until the tree is settled, and every step is written by the same {@link
 * NodeRouter} a host uses, into files held in memory. Given the same rows, the same planner
 * settings and a host that settles after every flush, the host and the simulator must make the
 * same decisions and end with the same tree: the same node ids, levels, ranges, sequences, rows
 * and bytes. A host test compares the two after every flush.
 *
 * <p>It is not the cost model of {@link io.iam.core.tree.iam.TreeSimulator}, which runs the
 * kernel's planners on key ranges and record counts alone, in the paper's order, to predict write
 * amplification at scale; this one runs a file-based host's exact procedure on real rows, to check
 * that host.
 *
 * <p>Rows are unique by key within a flush; a row written again in a later flush replaces the
 * older version when a step merges them. Deletes are not modelled. Not thread-safe.
 */
public final class LayoutSimulator {

  /** One row: its key and the serialized bytes of its cells. */
  public record Row(byte[] key, long bytes) {}

  /** A file in memory: a creation number (newer files have larger ones) and its sorted rows. */
  public record SimFile(long created, List<Row> rows) {}

  private final Supplier<TreePlanner> planner;
  private final boolean sideBySide;
  private final List<Sequence<SimFile>> files = new ArrayList<>();
  private final List<String> steps = new ArrayList<>();
  private TreeLayout<SimFile> layout = TreeLayout.of(List.of());
  private long stamps;
  private long created;
  private long bytesFlushed;
  private long bytesCompacted;
  private long stepsBeside;

  /**
   * @param planner the planner to use for each decision (asked every time, as a host whose mode
   *     follows its cache asks)
   */
  public LayoutSimulator(Supplier<TreePlanner> planner) {
    this(planner, false);
  }

  /**
   * @param planner as above
   * @param sideBySide whether to run steps two at a time, as a host with several compaction threads
   *     does: each step is planned with a second one beside it ({@link TreePlanner#next(TreeLayout,
   *     java.util.Collection)} given the first's claim), both on the same tree, and the two are
   *     committed in turn, the second first every other time
   */
  public LayoutSimulator(Supplier<TreePlanner> planner, boolean sideBySide) {
    this.planner = planner;
    this.sideBySide = sideBySide;
  }

  /**
   * Flushes {@code rows} (unique keys, any order) into level 1 and settles the tree.
   *
   * @return the kinds of the steps that settled it, in order (see {@link NodePlan#kind()})
   * @throws IllegalStateException if the tree does not settle within a generous number of steps
   */
  public List<String> flush(Collection<Row> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    TreeMap<byte[], Row> sorted = new TreeMap<>(Rows::compare);
    rows.forEach(r -> sorted.put(r.key(), r));
    NodePlan<SimFile> route = planner.get().flushRoute(layout);
    bytesFlushed += write(List.of(), route, sorted.values());
    List<String> done = new ArrayList<>();
    for (int guard = 0; ; guard++) {
      if (guard > 10_000) {
        throw new IllegalStateException("the tree does not settle:\n" + layout);
      }
      TreePlanner p = planner.get();
      var next = p.next(layout);
      if (next.isEmpty()) {
        break;
      }
      List<NodePlan<SimFile>> plans = new ArrayList<>(List.of(next.get()));
      if (sideBySide) {
        var beside = p.next(layout, List.of(p.claim(layout, next.get())));
        if (beside.isPresent()) {
          if (!Collections.disjoint(beside.get().inputs(), next.get().inputs())) {
            throw new IllegalStateException("a step beside " + next.get() + " reads its files: " + beside.get());
          }
          plans.add(guard % 2, beside.get());
          stepsBeside++;
        }
      }
      for (NodePlan<SimFile> plan : plans) {
        bytesCompacted += write(plan.inputs(), plan, merged(plan.inputs()));
        done.add(plan.kind());
      }
    }
    steps.addAll(done);
    return done;
  }

  /** The tree now. */
  public TreeLayout<SimFile> layout() {
    return layout;
  }

  /** A planner as the simulator's next decision would use it. */
  public TreePlanner planner() {
    return planner.get();
  }

  /** Every step kind run since the start, in order. */
  public List<String> steps() {
    return List.copyOf(steps);
  }

  /** Steps run beside another (only with {@code sideBySide}). */
  public long stepsBeside() {
    return stepsBeside;
  }

  /** Cell bytes written by flushes. */
  public long bytesFlushed() {
    return bytesFlushed;
  }

  /** Cell bytes written by tree steps. */
  public long bytesCompacted() {
    return bytesCompacted;
  }

  /** The newest version of every row of {@code inputs}, sorted. */
  private static List<Row> merged(List<SimFile> inputs) {
    List<SimFile> oldestFirst = new ArrayList<>(inputs);
    oldestFirst.sort(Comparator.comparingLong(SimFile::created));
    TreeMap<byte[], Row> rows = new TreeMap<>(Rows::compare);
    for (SimFile f : oldestFirst) {
      f.rows().forEach(r -> rows.put(r.key(), r));
    }
    return List.copyOf(rows.values());
  }

  /** Writes {@code rows} as {@code plan} routes them, replacing {@code inputs}; returns the bytes. */
  private long write(List<SimFile> inputs, NodePlan<SimFile> plan, Collection<Row> rows) {
    NodeRouter<List<Row>> router = new NodeRouter<>(plan, () -> ++stamps, (target, piece) -> new ArrayList<>());
    List<Sequence<SimFile>> outputs = new ArrayList<>();
    long bytes = 0;
    try {
      for (Row r : rows) {
        router.startRow(r.key()).writer().add(r);
        router.addCell(r.bytes());
      }
      for (NodeRouter.Output<List<Row>> o : router.commit()) {
        SimFile file = new SimFile(++created, List.copyOf(o.writer()));
        outputs.add(new Sequence<>(file, router.tagOf(o), o.first(), o.last(), o.bytes(), router.slicesOf(o)));
        bytes += o.bytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in-memory writers never throw
    }
    Set<SimFile> gone = new HashSet<>(inputs);
    files.removeIf(s -> gone.contains(s.file()));
    files.addAll(outputs);
    layout = TreeLayout.of(files);
    stamps = Math.max(stamps, layout.largestStamp());
    return bytes;
  }
}
