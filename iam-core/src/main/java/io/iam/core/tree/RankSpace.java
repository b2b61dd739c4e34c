package io.iam.core.tree;

import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.Version;

import io.iam.core.key.KeyComparator;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Translates a node tree between the engine's byte[] user keys and the pure kernel's {@code long}
 * keys ({@link io.iam.core.tree.iam}) by rank: the distinct keys that matter for one plan (every
 * node's range ends, plus the keys of the records being flushed, if given) are sorted and
 * numbered 0, 1, 2, …. Ranks keep the order exactly, so every plan the kernel makes in rank space
 * (ranges, "the next key", a gap's midpoint) names real keys again. A record key outside the
 * space has no rank; callers place such keys between ranks by comparing bytes. Immutable.
 */
public final class RankSpace {

  private final KeyComparator cmp;
  private final byte[][] keys;
  /**
   * The rank of every key array the space was built from, by identity: node boundaries are looked
   * up again and again (every node of every level, for each plan), and a hash lookup of the very
   * same array costs far less than a binary search comparing bytes. Other arrays are searched.
   */
  private final IdentityHashMap<byte[], Integer> ranksOfInputs;

  private RankSpace(KeyComparator cmp, byte[][] keys, IdentityHashMap<byte[], Integer> ranksOfInputs) {
    this.cmp = cmp;
    this.keys = keys;
    this.ranksOfInputs = ranksOfInputs;
  }

  /** The rank space of {@code version}'s node boundaries plus {@code recordKeys} (any order, may repeat). */
  public static RankSpace of(Version version, Collection<byte[]> recordKeys) {
    KeyComparator cmp = version.userComparator();
    List<byte[]> all = new ArrayList<>(recordKeys);
    for (int level = 1; level <= version.depth(); level++) {
      for (NodeMeta n : version.nodes(level)) {
        all.add(n.loRef());
        all.add(n.hiRef());
      }
    }
    all.sort(cmp::compare);
    List<byte[]> distinct = new ArrayList<>(all.size());
    IdentityHashMap<byte[], Integer> ranks = new IdentityHashMap<>(all.size());
    for (byte[] k : all) {
      if (distinct.isEmpty() || cmp.compare(distinct.get(distinct.size() - 1), k) != 0) {
        distinct.add(k);
      }
      ranks.put(k, distinct.size() - 1);
    }
    return new RankSpace(cmp, distinct.toArray(new byte[0][]), ranks);
  }

  /** The number of ranks. */
  public int size() {
    return keys.length;
  }

  /**
   * The rank of {@code key}.
   *
   * @throws IllegalArgumentException if the key is not in the space
   */
  public long rank(byte[] key) {
    int i = search(key);
    if (i < 0) {
      throw new IllegalArgumentException("key not in the rank space");
    }
    return i;
  }

  /** The key of {@code rank} (a copy). */
  public byte[] key(long rank) {
    if (rank < 0 || rank >= keys.length) {
      throw new IllegalArgumentException("rank " + rank + " outside 0.." + (keys.length - 1));
    }
    return keys[(int) rank].clone();
  }

  private int search(byte[] key) {
    Integer known = ranksOfInputs.get(key);
    return known != null ? known : Arrays.binarySearch(keys, key, cmp::compare);
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
