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
 * plans on the same rows hand out the same ids. Not thread-safe (one flush or step).
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

  private final List<Target> routed = new ArrayList<>();
  private final List<Target> markers = new ArrayList<>();
  private final int depth;
  private final LongSupplier stamps;
  private final Opener<W> opener;
  private final List<Output<W>> outputs = new ArrayList<>();
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
    for (Target t : targets) {
      (t.markerOnly() ? markers : routed).add(t);
    }
    this.depth = depth;
    this.stamps = stamps;
    this.opener = opener;
  }

  /** A new row starts: the output its cells go to (opened if needed). */
  public Output<W> startRow(byte[] row) throws IOException {
    int t = targetOf(row);
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
  }

  /**
   * Ends the rows: draws the commit's epoch and opens the markers and the empty targets that must
   * persist. Returns every output, in the order their tags are to be drawn.
   */
  public List<Output<W>> commit() throws IOException {
    epoch = stamps.getAsLong();
    for (Target t : routed) {
      if (t.keepIfEmpty() && outputs.stream().noneMatch(o -> o.target == t)) {
        start(t, 0);
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
