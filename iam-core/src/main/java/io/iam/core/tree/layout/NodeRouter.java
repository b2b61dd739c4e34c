package io.iam.core.tree.layout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Decides, for one flush or tree step, which output file every row goes to and what each output
 * is tagged with; the host only writes the bytes. Rows arrive in order, so the target only moves
 * forward: each row goes to the target whose interval holds it; a cut target starts a new output
 * at a row boundary once the current one holds its cut size; at commit a target that must persist
 * without rows gets an output without cells (a marker). Stamps are drawn in a fixed order, the
 * commit's epoch first and then one id per new node in output order, so two hosts running the same
 * plans on the same rows hand out the same ids. A shared router ({@link NodePlan#shared()}) writes
 * every row into one output, a level-1 shared flush file, and counts the bytes each target's
 * interval receives as that target's {@link Slices slice}. Not thread-safe (one flush or step).
 *
 * @param <W> the host's writer of one output file
 */
public final class NodeRouter<W> {

  /** Opens the writer of a new output. */
  @FunctionalInterface
  public interface Opener<W> {
    W open(Target target, int piece) throws IOException;
  }

  /** One output file: its target, writer, piece number and the rows and bytes written so far. */
  public static final class Output<W> {
    private final Target target;
    private final W writer;
    private final int piece;
    private byte[] first;
    private byte[] last;
    private long bytes;
    private boolean lastPiece = true;

    private Output(Target target, W writer, int piece) {
      this.target = target;
      this.writer = writer;
      this.piece = piece;
    }

    public Target target() {
      return target;
    }

    public W writer() {
      return writer;
    }

    /** The serialized bytes of the cells written to it. */
    public long bytes() {
      return bytes;
    }

    /** Its first row, or null for a marker. */
    public byte[] first() {
      return first;
    }

    /** Its last row, or null for a marker. */
    public byte[] last() {
      return last;
    }
  }

  /** The one output of a shared router: a new level-1 file whose range is its rows. */
  private static final Target SHARED = new Target(Target.NEW, 1, null, null, null, null, false, 0);

  private final List<Target> routed = new ArrayList<>();
  private final List<Target> markers = new ArrayList<>();
  private final int depth;
  private final LongSupplier stamps;
  private final Opener<W> opener;
  private final List<Output<W>> outputs = new ArrayList<>();
  /** For a shared router, the bytes of each routed target's slice; else null. */
  private final long[] sliceBytes;
  private int current;
  private Output<W> open;
  private long epoch = -1;

  /**
   * @param targets the plan's targets: those that receive rows sorted and together covering every
   *     row, markers anywhere
   * @param depth the tree depth recorded in the tags
   * @param stamps the store's stamps (new node ids and epochs)
   */
  public NodeRouter(List<Target> targets, int depth, LongSupplier stamps, Opener<W> opener) {
    this(targets, depth, stamps, opener, false);
  }

  /** A router for {@code plan}: shared if the plan is ({@link NodePlan#shared()}). */
  public NodeRouter(NodePlan<?> plan, LongSupplier stamps, Opener<W> opener) {
    this(plan.targets(), plan.depth(), stamps, opener, plan.shared());
  }

  private NodeRouter(List<Target> targets, int depth, LongSupplier stamps, Opener<W> opener, boolean shared) {
    for (Target t : targets) {
      (t.markerOnly() ? markers : routed).add(t);
    }
    if (shared && (!markers.isEmpty() || routed.stream().anyMatch(t -> t.level() != 1 || t.node() < 0))) {
      throw new IllegalArgumentException("a shared flush routes into existing level-1 nodes only: " + targets);
    }
    this.depth = depth;
    this.stamps = stamps;
    this.opener = opener;
    this.sliceBytes = shared ? new long[routed.size()] : null;
  }

  /** The slices of a shared router's output; null for any other router. */
  public Slices slicesOf(Output<W> o) {
    if (sliceBytes == null) {
      return null;
    }
    long[] nodes = new long[routed.size()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = routed.get(i).node();
    }
    return new Slices(nodes, sliceBytes);
  }

  /** A new row starts: the output its cells go to (opened if needed). */
  public Output<W> startRow(byte[] row) throws IOException {
    int t = targetOf(row);
    if (sliceBytes != null) {
      if (open == null) {
        open = start(SHARED, 0);
        open.first = row;
      }
      open.last = row;
      current = t;
      return open;
    }
    boolean cutNow = open != null && open.target.cutBytes() > 0 && open.bytes >= open.target.cutBytes();
    if (open == null || t != current || cutNow) {
      int piece = open != null && t == current ? open.piece + 1 : 0;
      if (piece > 0) {
        open.lastPiece = false;
      }
      open = start(routed.get(t), piece);
      current = t;
    }
    if (open.first == null) {
      open.first = row;
    }
    open.last = row;
    return open;
  }

  /** Counts a cell of {@code bytes} serialized bytes, of the row last started. */
  public void addCell(long bytes) {
    if (open == null) {
      throw new IllegalStateException("a cell before any row");
    }
    open.bytes += bytes;
    if (sliceBytes != null) {
      sliceBytes[current] += bytes;
    }
  }

  /**
   * Ends the rows: draws the commit's epoch and opens the markers and the empty targets that must
   * persist. Returns every output, in the order their tags are to be drawn.
   */
  public List<Output<W>> commit() throws IOException {
    epoch = stamps.getAsLong();
    if (sliceBytes == null) { // a shared router's targets are slices, never outputs of their own
      for (Target t : routed) {
        if (t.keepIfEmpty() && outputs.stream().noneMatch(o -> o.target == t)) {
          start(t, 0);
        }
      }
    }
    for (Target t : markers) {
      start(t, 0);
    }
    return List.copyOf(outputs);
  }

  /** Every output opened so far (for aborting). */
  public List<Output<W>> outputs() {
    return List.copyOf(outputs);
  }

  /**
   * The tag of an output after {@link #commit()}: its node (a new node draws its id now), level,
   * and range widened to the rows it holds. Null for an unplaced output, which carries no tag.
   */
  public NodeTag tagOf(Output<W> o) {
    if (epoch < 0) {
      throw new IllegalStateException("tags before commit");
    }
    Target t = o.target;
    if (t.node() == Target.UNPLACED) {
      return null;
    }
    long node = t.node() == Target.NEW ? stamps.getAsLong() : t.node();
    byte[] lo = t.lo();
    byte[] hi = t.hi();
    if (o.first != null) {
      lo = lo == null || o.piece > 0 ? o.first : Rows.minLo(lo, o.first);
      hi = hi == null || !o.lastPiece ? o.last : Rows.maxHi(hi, o.last);
    }
    if (lo == null || hi == null) {
      throw new IllegalStateException("a new node without rows has no range: " + t);
    }
    return new NodeTag(node, t.level(), lo, hi, epoch, Math.max(depth, t.level()));
  }

  private int targetOf(byte[] row) {
    for (int t = open == null ? 0 : current; t < routed.size(); t++) {
      if (routed.get(t).routes(row)) {
        return t;
      }
    }
    throw new IllegalStateException("no target takes row " + NodeTag.show(row) + ": targets " + routed);
  }

  private Output<W> start(Target target, int piece) throws IOException {
    Output<W> o = new Output<>(target, opener.open(target, piece), piece);
    outputs.add(o);
    return o;
  }
}
