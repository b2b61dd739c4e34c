package io.iam.core.tree.layout;

import io.iam.core.tree.iam.CombinePlanner;
import io.iam.core.tree.iam.FlushPlan;
import io.iam.core.tree.iam.FlushOrder;
import io.iam.core.tree.iam.FlushPlanner;
import io.iam.core.tree.iam.KeyRanks;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeScheduler;
import io.iam.core.tree.iam.TreeShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Asks iam-core's kernel ({@link FlushPlanner}, {@link CombinePlanner}) what the tree should do
 * next and translates the answer into files to read and nodes to write ({@link NodePlan}). The
 * order is {@link TreeScheduler}'s, the embedded engine's and the simulator's, with this host's own
 * steps in it: a new level once the leaf level is full (by nodes, or from level 2 on by bytes:
 * {@link #LEAF_LEVEL_FULL_DIVISOR}); unplaced files (they are a level-0 node flushed into level 1);
 * then, once level 1 is halfway to its hard limit ({@link #LEVEL_ONE_FIRST}), its fullest full
 * node; then the deepest full internal node (a full internal child that blocks it goes first);
 * then level-1 nodes whose last memstore flush the kernel would have merged (or merged and cut);
 * then a combine. A host that runs steps side by side passes the running steps' {@link Claim}s and
 * gets only a step on other nodes; beside deep steps only, level 1's full nodes first. One kernel
 * decision is translated differently: a full node without children, which the kernel moves down a
 * level, stays on its level emptied and cuts its rows into new nodes below it ({@link
 * #NEW_LEAVES}), since this host moves a node by rewriting it. Pure: no host types, no I/O. Shared
 * by the HBase store engine and {@link LayoutSimulator}, so the simulator makes exactly the
 * engine's decisions.
 */
public final class TreePlanner {

  /**
   * Level 1's pressure ({@link Backlog#levelOnePressure}) from which its full nodes go before deeper
   * ones: halfway from C_t to the hard limit. A host that runs one step at a time (HBase) would
   * otherwise let a run of deep steps fill level 1 to the limit, where memstore flushes wait.
   */
  static final double LEVEL_ONE_FIRST = 0.5;

  /** The kind of a step that empties a full node without children into new nodes below it ({@code newLeaves}). */
  public static final String NEW_LEAVES = "new leaves";

  /**
   * The new nodes a full node without children cuts its rows into ({@link #NEW_LEAVES}) hold C_t
   * divided by this. Halves, not the fifths a full leaf is cut into ({@link
   * FlushPlanner#CUT_DIVISOR}): in HBase, at 200,000 rows with C_t = 1 MiB, fifths wrote 4.17 to
   * 4.51 times the user bytes and halves 3.99 to 4.29 (four alternated runs each,
   * docs/hbase-engine.md).
   */
  static final int NEW_LEAF_DIVISOR = 2;

  /**
   * From level 2 on, the leaf level also counts as full once it holds t^n × C_t divided by this,
   * with fewer than t^n nodes. Level 1's whole step merges into every leaf of level 2 at once, and
   * with hashed keys they fill alike: 85 leaves of 7.4 MiB (C_t = 8 MiB) passed C_t in one step and
   * were cut into 335, the new level came after 476, and combines rewrote the surplus (a load that
   * wrote 7.30 times its bytes). Counted full at half its bytes, the leaf level gets its new level
   * before that step: nine 1,000,000-row loads wrote 4.33 to 4.70 against 4.20 to 6.77
   * (docs/hbase-engine.md). A level-1 leaf is cut after each memstore flush, one node at a time.
   */
  static final int LEAF_LEVEL_FULL_DIVISOR = 2;

  /** A runaway guard on the number of levels. */
  static final int MAX_DEPTH = 20;

  private final int fanout;
  private final long capacity;
  private final Function<long[], Mode> modes;

  /**
   * @param modes the mode for level sizes D_1..D_n (a host derives it from its settings and cache size)
   */
  public TreePlanner(int fanout, long capacity, Function<long[], Mode> modes) {
    this.fanout = fanout;
    this.capacity = capacity;
    this.modes = modes;
  }

  /** The next compaction, or empty when the tree is settled. */
  public <F> Optional<NodePlan<F>> next(TreeLayout<F> layout) {
    return next(layout, List.of());
  }

  /**
   * The next compaction that can run beside the {@code running} steps (their {@link #claim}s): the
   * first step, in the order of the class comment, that reads and writes none of their nodes. While
   * any step runs, steps that change the tree as a whole (adopting unplaced files, a combine) wait;
   * with nothing running this is {@link #next(TreeLayout)}.
   */
  public <F> Optional<NodePlan<F>> next(TreeLayout<F> layout, Collection<Claim> running) {
    if (layout.depth() == 0 && layout.unplaced().isEmpty()) {
      return Optional.empty();
    }
    Claim busy = Claim.union(running);
    if (busy.whole() || !busy.nodes().isEmpty() && !layout.unplaced().isEmpty()) {
      return Optional.empty();
    }
    boolean alone = busy.nodes().isEmpty();
    List<byte[]> extra = new ArrayList<>();
    for (List<Sequence<F>> files : List.of(layout.unplaced(), layout.shared())) {
      for (Sequence<F> s : files) {
        if (!s.isMarker()) {
          extra.add(s.first());
          extra.add(s.last());
        }
      }
    }
    // Beside running steps that hold no level-1 node (deep ones), level 1 goes first: draining it is
    // what keeps memstore flushes from waiting. Beside a level-1 step, the usual order.
    boolean levelOneFirst = levelOnePressure(layout) >= LEVEL_ONE_FIRST || !alone && !holdsLevelOne(layout, busy);
    Step<F> step = new Step<>(layout, ranksOf(layout, extra), busy, alone, levelOneFirst);
    step.at(Math.max(1, layout.depth()));
    return step.next();
  }

  /**
   * What {@code plan}, planned on {@code layout}, holds while it runs: the nodes whose files it reads
   * and the nodes it writes, or the whole tree if it reads unplaced files or combines. A step that
   * adds a level (a full leaf moving down) holds only its nodes: a step planned beside it on the
   * old depth writes nodes that stay valid on the new one.
   */
  public <F> Claim claim(TreeLayout<F> layout, NodePlan<F> plan) {
    if (plan.kind().equals("combine")) {
      return Claim.WHOLE;
    }
    Set<F> inputs = new HashSet<>(plan.inputs());
    for (Sequence<F> s : layout.unplaced()) {
      if (inputs.contains(s.file())) {
        return Claim.WHOLE;
      }
    }
    Set<Long> nodes = new HashSet<>();
    int unattributed = inputs.size();
    for (Sequence<F> s : layout.shared()) {
      if (inputs.contains(s.file())) {
        layout.level(1).forEach(n -> nodes.add(n.id()));
        unattributed--;
      }
    }
    for (int i = 1; i <= layout.depth() && unattributed > 0; i++) {
      for (TreeLayout.NodeView<F> n : layout.level(i)) {
        for (Sequence<F> s : n.files()) {
          if (inputs.contains(s.file())) {
            nodes.add(n.id());
            unattributed--;
          }
        }
      }
    }
    for (Target t : plan.targets()) {
      if (t.node() == Target.UNPLACED) {
        return Claim.WHOLE;
      }
      if (t.node() != Target.NEW) {
        nodes.add(t.node());
      }
    }
    return new Claim(false, nodes);
  }

  /** The mode the kernel plans {@code layout} with now (m and k follow the level sizes). */
  public <F> Mode mode(TreeLayout<F> layout) {
    return modes.apply(levelBytes(layout, Math.max(1, layout.depth())));
  }

  /**
   * How far {@code layout} is behind: whether it has a step to run, whether a memstore flush
   * should wait for it, and how full level 1 is past C_t. A level-1 node is at the hard limit at
   * {@link FlushPlanner#LEVEL_ONE_HARD_LIMIT} × C_t, the embedded engine's rule; unlike the
   * embedded engine, which knows the memtable's rows, a host that does not (HBase decides before
   * its flush reads them) counts every level-1 node, leaf or internal, since its memstore flushes
   * only append and the leaf's cut comes after. While level 1 holds shared flush files it empties
   * as a whole, so its fill is its nodes' mean ({@link #levelOneFill}).
   */
  public <F> Backlog backlog(TreeLayout<F> layout) {
    return backlog(layout, next(layout).isPresent());
  }

  /**
   * {@link #backlog(TreeLayout)} for a host that already knows whether {@link #next(TreeLayout)}
   * has a step for {@code layout} ({@code pending}), so the tree is not planned again.
   */
  public <F> Backlog backlog(TreeLayout<F> layout, boolean pending) {
    long fullest = levelOneFill(layout);
    return new Backlog(pending, pending && FlushPlanner.atLevelOneHardLimit(fullest, capacity), pressure(fullest));
  }

  private static <F> boolean holdsLevelOne(TreeLayout<F> layout, Claim busy) {
    for (TreeLayout.NodeView<F> n : layout.level(1)) {
      if (busy.nodes().contains(n.id())) {
        return true;
      }
    }
    return false;
  }

  /**
   * How full level 1 is, as the bytes of one node: its fullest node's; while it holds shared
   * flush files, which empty it as a whole, its nodes' mean. Level 1's nodes cover key ranges of
   * different widths and fill at different rates; emptied together, they are due when they hold
   * C_t each on average, and the fullest one would leave little room between that and the hard
   * limit for a step on level 2 to end before memstore flushes must wait.
   */
  private static <F> long levelOneFill(TreeLayout<F> layout) {
    List<TreeLayout.NodeView<F>> level1 = layout.level(1);
    long fullest = 0;
    long total = 0;
    for (TreeLayout.NodeView<F> n : level1) {
      fullest = Math.max(fullest, n.bytes());
      total += n.bytes();
    }
    return layout.shared().isEmpty() ? fullest : total / level1.size();
  }

  private <F> double levelOnePressure(TreeLayout<F> layout) {
    return pressure(levelOneFill(layout));
  }

  private double pressure(long fullestLevelOne) {
    return Math.max(0.0, (double) fullestLevelOne / capacity - 1.0) / (FlushPlanner.LEVEL_ONE_HARD_LIMIT - 1);
  }

  /**
   * How a memstore flush is cut into level-1 nodes: one target per level-1 node, split where the
   * kernel's plan for a level-0 node over all rows splits them, each boundary kept in the gap
   * between two nodes (a flush writes only the nodes it puts rows into, so it cannot take range
   * from one); a new node if level 1 is empty. Inputs are empty.
   *
   * <p>Once level 1 is internal and appends (every mode but a mixed or merging level 1), the plan
   * is a {@link NodePlan#SHARED_FLUSH}: all rows go into one file, and the targets only name each
   * node's slice of it. A host pays a fixed cost per file it writes (HBase: a Bloom chunk, a
   * trailer, a reader to open), so one file per memstore flush instead of one per level-1 node
   * takes that cost off the flusher, which holds a region's writes. The bytes written do not
   * change: level 1's nodes are emptied into level 2 together ({@link #next}), each row written
   * once at level 1 and once below.
   */
  public <F> NodePlan<F> flushRoute(TreeLayout<F> layout) {
    int depth = Math.max(1, layout.depth());
    List<TreeLayout.NodeView<F>> level1 = layout.level(1);
    Mode mode = modes.apply(levelBytes(layout, depth));
    if (level1.isEmpty()) {
      return new NodePlan<>("move", List.of(), List.of(newNode(1, 0)), depth, mode);
    }
    KeyRanks ranks = ranksOf(layout, List.of());
    TreeShape shape = shape(ranks, layout, depth);
    long[] starts = levelOneStarts(shape, ranks, mode);
    List<Target> targets = new ArrayList<>();
    for (int j = 0; j < starts.length; j++) {
      TreeLayout.NodeView<F> c = level1.get(j);
      byte[] lower = j == 0 ? null : ranks.key(starts[j]);
      byte[] upper = j + 1 < starts.length ? ranks.key(starts[j + 1]) : null;
      targets.add(new Target(c.id(), 1, c.lo(), c.hi(), lower, upper, false, 0));
    }
    boolean shared = !shape.isLeaf(1) && mode.maxSequences(1) == Integer.MAX_VALUE;
    return new NodePlan<>(shared ? NodePlan.SHARED_FLUSH : "flush", List.of(), targets, depth, mode);
  }

  /**
   * Where the rows a memstore flush routes to each level-1 node start, in rank space (the first
   * 0): the kernel's plan for a level-0 node over all rows, each boundary kept in the gap between
   * two nodes.
   */
  private static long[] levelOneStarts(TreeShape shape, KeyRanks ranks, Mode mode) {
    FlushPlan plan = FlushPlanner.plan(shape, new Node(-1, 0, 0, ranks.top(), 1, 1), mode);
    List<FlushPlan.Assignment> as = plan.assignments();
    long[] starts = new long[as.size()];
    for (int j = 1; j < as.size(); j++) {
      Node prev = as.get(j - 1).child();
      Node next = as.get(j).child();
      starts[j] = Math.max(prev.hi() + 1, Math.min(as.get(j).lo(), next.lo()));
    }
    return starts;
  }

  /** The ranks of every node end of {@code layout} plus {@code extra} rows; an empty row is an open end. */
  private static <F> KeyRanks ranksOf(TreeLayout<F> layout, Collection<byte[]> extra) {
    List<byte[]> rows = new ArrayList<>(extra);
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<F> n : layout.level(i)) {
        rows.add(n.lo());
        rows.add(n.hi());
      }
    }
    return KeyRanks.of(rows, Rows::compare, Rows::isOpen, Rows.OPEN);
  }

  /** The kernel's view of {@code n}. */
  private static <F> Node node(KeyRanks ranks, TreeLayout.NodeView<F> n) {
    return new Node(n.id(), n.level(), ranks.lo(n.lo()), ranks.hi(n.hi()), n.bytes(),
        n.sequences());
  }

  /** The kernel's shape of {@code layout} with {@code depth} levels (≥ the layout's, ≥ 1). */
  private <F> TreeShape shape(KeyRanks ranks, TreeLayout<F> layout, int depth) {
    List<List<Node>> levels = new ArrayList<>();
    for (int i = 1; i <= depth; i++) {
      List<Node> level = new ArrayList<>();
      for (TreeLayout.NodeView<F> n : layout.level(i)) {
        level.add(node(ranks, n));
      }
      levels.add(level);
    }
    return new TreeShape(levels, fanout, capacity);
  }

  private static Target newNode(int level, long cutBytes) {
    return new Target(Target.NEW, level, null, null, null, null, false, cutBytes);
  }

  private static <F> long[] levelBytes(TreeLayout<F> layout, int depth) {
    long[] own = layout.levelBytes();
    return java.util.Arrays.copyOf(own, depth);
  }

  /**
   * The planning of one step at one depth, as the host of {@link TreeScheduler}: its own first steps
   * are adopting unplaced files and, under pressure, level 1's full nodes; its follow-up is a level-1
   * node a memstore flush appended to where the kernel would have merged; a new level, due when the
   * leaf level is full by nodes or bytes, is planning one level deeper; a combine only with nothing
   * running.
   */
  private final class Step<F> implements TreeScheduler.Steps<NodePlan<F>> {
    private final TreeLayout<F> layout;
    private final KeyRanks ranks;
    private final Claim busy;
    private final boolean alone;
    private final boolean levelOneFirst;
    private int depth;
    private TreeShape shape;
    private Mode mode;
    private long[] bytes;

    Step(TreeLayout<F> layout, KeyRanks ranks, Claim busy, boolean alone, boolean levelOneFirst) {
      this.layout = layout;
      this.ranks = ranks;
      this.busy = busy;
      this.alone = alone;
      this.levelOneFirst = levelOneFirst;
    }

    Optional<NodePlan<F>> next() {
      return TreeScheduler.next(shape, depth < MAX_DEPTH, mode, this);
    }

    /** {@code s} is this step's shape: its leaf level's bytes are the ones {@link #at} counted. */
    @Override
    public boolean leafLevelFull(TreeShape s) {
      return CombinePlanner.needsNewLevel(s) || s.depth() >= 2
          && (double) bytes[s.depth() - 1] / capacity >= (double) s.threshold(s.depth()) / LEAF_LEVEL_FULL_DIVISOR;
    }

    @Override
    public Optional<NodePlan<F>> first() {
      if (!layout.unplaced().isEmpty()) {
        return Optional.of(adopt());
      }
      return levelOneFirst ? fullLevelOne() : Optional.empty();
    }

    @Override
    public Optional<NodePlan<F>> flush(Node node, FlushPlan plan) {
      return startIfFree(node, plan);
    }

    @Override
    public Optional<NodePlan<F>> afterFlushes() {
      return levelOneFollowUp();
    }

    @Override
    public Optional<NodePlan<F>> addLevel() {
      at(depth + 1);
      return next();
    }

    @Override
    public Optional<NodePlan<F>> combine(Node victim, FlushPlan plan) {
      if (!alone) {
        return Optional.empty();
      }
      return Optional.of(victim.level() == 1 && !layout.shared().isEmpty() ? levelOne() : translate(plan, true, "combine"));
    }

    /** Whether {@code plan} can run beside the running steps. */
    private Optional<NodePlan<F>> ifFree(NodePlan<F> plan) {
      return busy.nodes().isEmpty() || claim(layout, plan).disjoint(busy) ? Optional.of(plan) : Optional.empty();
    }

    void at(int d) {
      depth = d;
      shape = shape(ranks, layout, d);
      bytes = levelBytes(layout, d);
      mode = modes.apply(bytes);
    }

    /** The unplaced files as a level-0 node flushed into level 1 (a move if nothing overlaps). */
    NodePlan<F> adopt() {
      List<F> files = new ArrayList<>();
      byte[] lo = null;
      byte[] hi = null;
      long bytes = 0;
      for (Sequence<F> s : layout.unplaced()) {
        files.add(s.file());
        if (!s.isMarker()) {
          lo = lo == null || Rows.compare(s.first(), lo) < 0 ? s.first() : lo;
          hi = hi == null || Rows.compare(s.last(), hi) > 0 ? s.last() : hi;
          bytes += s.bytes();
        }
      }
      if (lo == null) {
        return new NodePlan<>("adopt", files, List.of(), depth, mode); // only empty files: drop them
      }
      Node memtable = new Node(-1, 0, ranks.lo(lo), ranks.hi(hi), bytes, files.size());
      return translate(FlushPlanner.plan(shape, memtable, mode), false, "adopt");
    }

    /** The fullest full level-1 node, if level 1 is internal, or a full child blocking it. */
    Optional<NodePlan<F>> fullLevelOne() {
      return depth > 1 ? FlushOrder.first(shape, 1, 1, mode, this::startIfFree) : Optional.empty();
    }

    /**
     * The kernel's step for {@code n}; for a level-1 node while level 1 holds shared flush files,
     * level 1 emptied as a whole ({@link #levelOne}) instead: a shared file can only be read and
     * replaced with every row it holds.
     */
    private Optional<NodePlan<F>> startIfFree(Node n, FlushPlan plan) {
      if (n.level() == 1 && !layout.shared().isEmpty()) {
        return levelOneDue() ? ifFree(levelOne()) : Optional.empty();
      }
      String kind = plan.kind() == FlushPlan.Kind.MOVE ? NEW_LEAVES : plan.kind().name().toLowerCase(java.util.Locale.ROOT);
      return ifFree(translate(plan, false, kind));
    }

    /**
     * Whether level 1, holding shared files, is due to empty as a whole: once it holds C_t per
     * node on average ({@link #levelOneFill}). A full node alone does not trigger it: emptying
     * the others at a fraction of C_t would append smaller sequences below (more merges at the
     * mixed level: write amplification 6.02 against 5.24 at 1,000,000 rows, one run each).
     */
    boolean levelOneDue() {
      return levelOneFill(layout) >= capacity;
    }

    /**
     * Every level-1 node flushed into its children in one step, reading the shared flush files:
     * each node over the rows memstore flushes route to it (its range widened to the gaps around
     * it, the first and last to the shared files' rows), planned by the kernel as a flush; each
     * keeps its marker, shrunk as after any flush, or, if the kernel would split it (2t children),
     * is replaced by the two empty halves of its widened range. A child that two neighbours' rows
     * reach gets one output.
     */
    NodePlan<F> levelOne() {
      List<Node> level1 = shape.level(1);
      long[] starts = levelOneStarts(shape, ranks, mode);
      long lowest = level1.get(0).lo();
      long highest = level1.get(level1.size() - 1).hi();
      for (Sequence<F> s : layout.shared()) {
        lowest = Math.min(lowest, ranks.lo(s.first()));
        highest = Math.max(highest, ranks.hi(s.last()));
      }
      List<Node> wide = new ArrayList<>(level1.size());
      for (int j = 0; j < level1.size(); j++) {
        Node n = level1.get(j);
        long lo = j == 0 ? lowest : starts[j];
        long hi = j + 1 < level1.size() ? starts[j + 1] - 1 : highest;
        wide.add(new Node(n.id(), 1, lo, hi, n.bytes(), n.sequences()));
      }
      List<List<Node>> levels = new ArrayList<>();
      levels.add(wide);
      for (int i = 2; i <= shape.depth(); i++) {
        levels.add(shape.level(i));
      }
      TreeShape wideShape = new TreeShape(levels, fanout, capacity);
      List<F> inputs = new ArrayList<>();
      for (TreeLayout.NodeView<F> v : layout.level(1)) {
        addFiles(v, inputs);
      }
      layout.shared().forEach(s -> inputs.add(s.file()));
      List<Target> targets = new ArrayList<>();
      List<Target> markers = new ArrayList<>();
      for (int j = 0; j < wide.size(); j++) {
        FlushPlan plan = FlushPlanner.planCombine(wideShape, wide.get(j), mode);
        List<Target> part = new ArrayList<>();
        if (plan.kind() == FlushPlan.Kind.MOVE) {
          TreeLayout.NodeView<F> v = layout.node(wide.get(j).id());
          part.add(new Target(v.id(), 2, v.lo(), v.hi(), null, null, true, 0));
        } else {
          flushTargets(plan, inputs, part);
          FlushPlan due = FlushPlanner.plan(wideShape, wide.get(j), mode);
          if (due.kind() == FlushPlan.Kind.SPLIT) {
            // Emptied, the node splits as the kernel would have split it: into two empty nodes.
            markers.add(Target.marker(Target.NEW, 1, ranks.key(wide.get(j).lo()), ranks.key(due.splitKey() - 1)));
            markers.add(Target.marker(Target.NEW, 1, ranks.key(due.splitKey()), ranks.key(wide.get(j).hi())));
          } else {
            markers.add(emptiedMarker(level1.get(j)));
          }
        }
        byte[] lower = j == 0 ? null : ranks.key(wide.get(j).lo());
        byte[] upper = j + 1 < wide.size() ? ranks.key(wide.get(j + 1).lo()) : null;
        part.set(0, bounded(part.get(0), lower, part.get(0).upper()));
        part.set(part.size() - 1, bounded(part.get(part.size() - 1), part.get(part.size() - 1).lower(), upper));
        for (Target t : part) {
          Target last = targets.isEmpty() ? null : targets.get(targets.size() - 1);
          if (last != null && last.node() >= 0 && last.node() == t.node()) {
            targets.set(targets.size() - 1, new Target(t.node(), t.level(), Rows.minLo(last.lo(), t.lo()),
                Rows.maxHi(last.hi(), t.hi()), last.lower(), t.upper(), last.keepIfEmpty() || t.keepIfEmpty(), 0));
          } else {
            targets.add(t);
          }
        }
      }
      targets.addAll(markers);
      return new NodePlan<>("level 1", inputs, targets, depth, mode);
    }

    /**
     * Where a full node {@code v} without children puts its rows: new nodes one level below it, cut
     * at C_t / {@value #NEW_LEAF_DIVISOR}, while {@code v} stays, emptied, on its level. The kernel
     * moves such a node down whole, which costs nothing where a move is a pointer; this host moves a
     * node by rewriting it, which costs the same bytes as the cut, and a move takes the node out of
     * its level for good (an internal level gains nodes only by splits), so a level that filled
     * while level 1 lagged behind stayed sparse for the rest of a load.
     */
    private Target newLeaves(TreeLayout.NodeView<F> v) {
      return new Target(Target.NEW, v.level() + 1, v.lo(), v.hi(), null, null, false, capacity / NEW_LEAF_DIVISOR);
    }

    private static Target bounded(Target t, byte[] lower, byte[] upper) {
      return new Target(t.node(), t.level(), t.lo(), t.hi(), lower, upper, t.keepIfEmpty(), t.cutBytes());
    }

    /**
     * A level-1 node whose newest sequence came from a memstore flush that appended it, where the
     * kernel, planning that flush, would have merged it (its mode merges at level 1 with the
     * sequences held before) or merged and cut it (a leaf that was already full).
     */
    Optional<NodePlan<F>> levelOneFollowUp() {
      if (!layout.shared().isEmpty()) {
        return Optional.empty(); // level 1 appends while it holds shared files
      }
      for (TreeLayout.NodeView<F> x : layout.level(1)) {
        List<Sequence<F>> data = x.dataFiles();
        if (data.size() < 2) {
          continue;
        }
        long before = x.bytes() - data.get(data.size() - 1).bytes();
        List<F> inputs = x.files().stream().map(Sequence::file).toList();
        if (shape.isLeaf(1) && before >= capacity) {
          Target cut = new Target(Target.NEW, 1, x.lo(), x.hi(), null, null, false, capacity / FlushPlanner.CUT_DIVISOR);
          Optional<NodePlan<F>> plan = ifFree(new NodePlan<>("cut", inputs, List.of(cut), depth, mode));
          if (plan.isPresent()) {
            return plan;
          }
        } else if (mode.merges(1, data.size() - 1)) {
          Target merged = new Target(x.id(), 1, x.lo(), x.hi(), null, null, true, 0);
          Optional<NodePlan<F>> plan = ifFree(new NodePlan<>("merge", inputs, List.of(merged), depth, mode));
          if (plan.isPresent()) {
            return plan;
          }
        }
      }
      return Optional.empty();
    }

    /** The kernel's plan as files to read and nodes to write; {@code destroy} for a combine. */
    NodePlan<F> translate(FlushPlan plan, boolean destroy, String kind) {
      Node n = plan.node();
      int level = n.level();
      List<F> inputs = new ArrayList<>();
      if (level == 0) {
        layout.unplaced().forEach(s -> inputs.add(s.file()));
      } else {
        addFiles(layout.node(n.id()), inputs);
      }
      List<Target> targets = new ArrayList<>();
      switch (plan.kind()) {
        case MOVE -> {
          if (level == 0) {
            targets.add(newNode(1, 0));
          } else {
            TreeLayout.NodeView<F> v = layout.node(n.id());
            if (destroy) { // a combine: the node itself moves down
              targets.add(new Target(v.id(), level + 1, v.lo(), v.hi(), null, null, true, 0));
            } else {
              targets.add(newLeaves(v));
              targets.add(Target.marker(v.id(), level, v.lo(), v.hi()));
            }
          }
        }
        case SPLIT -> {
          TreeLayout.NodeView<F> v = layout.node(n.id());
          byte[] split = ranks.key(plan.splitKey());
          targets.add(new Target(Target.NEW, level, v.lo(), ranks.key(plan.splitKey() - 1), null, split, true, 0));
          targets.add(new Target(Target.NEW, level, split, v.hi(), split, null, true, 0));
        }
        case FLUSH -> {
          flushTargets(plan, inputs, targets);
          if (level >= 1 && !destroy) {
            targets.add(emptiedMarker(n));
          }
        }
      }
      return new NodePlan<>(kind, inputs, targets, depth, mode);
    }

    private void flushTargets(FlushPlan plan, List<F> inputs, List<Target> targets) {
      Node n = plan.node();
      int childLevel = n.level() + 1;
      boolean leaf = shape.isLeaf(childLevel);
      List<FlushPlan.Assignment> as = plan.assignments();
      for (int j = 0; j < as.size(); j++) {
        FlushPlan.Assignment a = as.get(j);
        TreeLayout.NodeView<F> c = layout.node(a.child().id());
        byte[] lower = j == 0 ? null : bound(a.lo());
        byte[] upper = j + 1 < as.size() ? bound(as.get(j + 1).lo()) : null;
        byte[] lo = c.lo();
        byte[] hi = c.hi();
        if (!leaf) {
          lo = a.lo() == n.lo() ? Rows.minLo(c.lo(), ranks.key(a.lo())) : ranks.key(a.lo());
          hi = a.hi() == n.hi() ? Rows.maxHi(c.hi(), ranks.key(a.hi())) : ranks.key(a.hi());
        }
        switch (a.action()) {
          case APPEND -> {
            // A child holding no cells (only its marker) may lose range: its marker is rewritten.
            boolean emptied = c.bytes() == 0;
            if (emptied) {
              addFiles(c, inputs);
            }
            targets.add(new Target(c.id(), childLevel, lo, hi, lower, upper, emptied, 0));
          }
          case MERGE -> {
            addFiles(c, inputs);
            targets.add(new Target(c.id(), childLevel, lo, hi, lower, upper, true, 0));
          }
          case MERGE_AND_CUT -> {
            addFiles(c, inputs);
            targets.add(new Target(Target.NEW, childLevel, lo, hi, lower, upper, false, capacity / FlushPlanner.CUT_DIVISOR));
          }
        }
      }
    }

    /**
     * The marker of a node that flushed: it stays, empty, with its range shrunk by {@link
     * FlushPlanner#planShrink}. Only its own end moves: its neighbours are not rewritten (they
     * keep their ranges and a gap remains, which the kernel allows).
     */
    private Target emptiedMarker(Node n) {
      Node emptied = new Node(n.id(), n.level(), n.lo(), n.hi(), 0, 0);
      List<List<Node>> levels = new ArrayList<>();
      for (int i = 1; i <= shape.depth(); i++) {
        List<Node> level = new ArrayList<>(shape.level(i));
        if (i == n.level()) {
          level.replaceAll(x -> x.id() == n.id() ? emptied : x);
        }
        levels.add(level);
      }
      Node own = emptied;
      for (Node c : FlushPlanner.planShrink(new TreeShape(levels, fanout, capacity), emptied)) {
        if (c.id() == n.id()) {
          own = c;
        }
      }
      return Target.marker(n.id(), n.level(), ranks.key(own.lo()), ranks.key(own.hi()));
    }

    private byte[] bound(long rank) {
      return rank <= 0 || rank >= ranks.top() ? null : ranks.key(rank);
    }

    private void addFiles(TreeLayout.NodeView<F> v, List<F> inputs) {
      for (Sequence<F> s : v.files()) {
        if (!inputs.contains(s.file())) {
          inputs.add(s.file());
        }
      }
    }
  }
}
