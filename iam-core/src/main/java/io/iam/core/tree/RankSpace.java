package io.iam.core.tree;

import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.Version;
import io.iam.core.tree.iam.KeyRanks;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A {@link Version}'s node tree as the pure kernel ({@link io.iam.core.tree.iam}) sees it: the
 * {@link KeyRanks} of every node's range ends, plus the keys of the records being flushed if given,
 * and the nodes and shape in those ranks. The embedded engine's ranges are closed, so no rank is an
 * open end. A record key outside the space has no rank; callers place such keys between ranks by
 * comparing bytes. Immutable.
 */
public final class RankSpace {

  private final KeyRanks ranks;

  private RankSpace(KeyRanks ranks) {
    this.ranks = ranks;
  }

  /** The rank space of {@code version}'s node boundaries plus {@code recordKeys} (any order, may repeat). */
  public static RankSpace of(Version version, Collection<byte[]> recordKeys) {
    List<byte[]> all = new ArrayList<>(recordKeys);
    for (int level = 1; level <= version.depth(); level++) {
      for (NodeMeta n : version.nodes(level)) {
        all.add(n.loRef());
        all.add(n.hiRef());
      }
    }
    return new RankSpace(KeyRanks.of(all, version.userComparator()::compare));
  }

  /** The number of ranks. */
  public int size() {
    return ranks.size();
  }

  /**
   * The rank of {@code key}.
   *
   * @throws IllegalArgumentException if the key is not in the space
   */
  public long rank(byte[] key) {
    return ranks.rank(key);
  }

  /** The key of {@code rank} (a copy). */
  public byte[] key(long rank) {
    return ranks.key(rank);
  }

  /** {@code node} of {@code level} as the kernel sees it. */
  public Node node(int level, NodeMeta node) {
    return new Node(node.id(), level, rank(node.loRef()), rank(node.hiRef()), node.bytes(), node.sequences());
  }

  /** The shape of {@code version}'s node tree in this rank space. */
  public TreeShape shape(Version version, int fanout, long capacity) {
    List<List<Node>> levels = new ArrayList<>();
    for (int level = 1; level <= version.depth(); level++) {
      List<Node> nodes = new ArrayList<>();
      for (NodeMeta n : version.nodes(level)) {
        nodes.add(node(level, n));
      }
      levels.add(nodes);
    }
    return new TreeShape(levels, fanout, capacity);
  }
}
