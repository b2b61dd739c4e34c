package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one order in which an IAM-tree's hosts pick their next step. */
class TreeSchedulerTest {

  private static final long C = 100;

  /** Records what the scheduler asks the host to start, and starts whatever {@code refuse} allows. */
  private static final class Recorder implements TreeScheduler.Steps<String> {
    final List<String> asked = new ArrayList<>();
    final List<Long> refused = new ArrayList<>();
    boolean mayAddLevel = true;
    Optional<String> first = Optional.empty();
    Optional<String> afterFlushes = Optional.empty();
    Boolean leafLevelFull;

    @Override
    public boolean leafLevelFull(TreeShape shape) {
      return leafLevelFull == null ? TreeScheduler.Steps.super.leafLevelFull(shape) : leafLevelFull;
    }

    @Override
    public Optional<String> first() {
      asked.add("first");
      return first;
    }

    @Override
    public Optional<String> afterFlushes() {
      asked.add("after-flushes");
      return afterFlushes;
    }

    @Override
    public Optional<String> addLevel() {
      asked.add("add-level");
      return mayAddLevel ? Optional.of("add-level") : Optional.empty();
    }

    @Override
    public Optional<String> flush(Node node, FlushPlan plan) {
      asked.add("flush " + node.id());
      return refused.contains(node.id()) ? Optional.empty() : Optional.of("flush " + node.id());
    }

    @Override
    public Optional<String> combine(Node victim, FlushPlan plan) {
      asked.add("combine " + victim.id());
      return Optional.of("combine " + victim.id());
    }
  }

  /** Two levels, t = 2: level 1 has nodes 1 and 2, level 2 (the leaves) the given ones. */
  private static TreeShape twoLevels(long bytes1, long bytes2, List<Node> leaves) {
    List<Node> one = List.of(new Node(1, 1, 0, 49, bytes1, 1), new Node(2, 1, 50, 99, bytes2, 1));
    return new TreeShape(List.of(one, leaves), 2, C);
  }

  @Test
  void aFullLeafLevelGetsANewLevelBeforeAnyFlushAndNothingElseStartsMeanwhile() {
    // Four leaves reach t^2 = 4: the leaf level is full; node 1 is full too.
    List<Node> leaves = List.of(new Node(11, 2, 0, 24, 10, 1), new Node(12, 2, 25, 49, 10, 1),
        new Node(21, 2, 50, 74, 10, 1), new Node(22, 2, 75, 99, 10, 1));
    Recorder host = new Recorder();
    assertEquals(Optional.of("add-level"), TreeScheduler.next(twoLevels(C, 0, leaves), true, Mode.lsa(), host));
    host.mayAddLevel = false;
    host.asked.clear();
    assertEquals(Optional.empty(), TreeScheduler.next(twoLevels(C, 0, leaves), true, Mode.lsa(), host));
    assertEquals(List.of("add-level"), host.asked, "no flush starts while the level waits");
    host.asked.clear();
    assertEquals(Optional.of("flush 1"), TreeScheduler.next(twoLevels(C, 0, leaves), false, Mode.lsa(), host),
        "a tree at its depth guard flushes instead");
  }

  @Test
  void fullNodesGoTheFullestFirstAndABusyOneIsPassedOver() {
    List<Node> leaves = List.of(new Node(11, 2, 0, 49, 10, 1), new Node(21, 2, 50, 99, 10, 1));
    Recorder host = new Recorder();
    assertEquals(Optional.of("flush 2"), TreeScheduler.next(twoLevels(C + 5, C + 30, leaves), true, Mode.lsa(), host));
    host.refused.add(2L);
    host.asked.clear();
    assertEquals(Optional.of("flush 1"), TreeScheduler.next(twoLevels(C + 5, C + 30, leaves), true, Mode.lsa(), host));
    assertEquals(List.of("first", "flush 2", "flush 1"), host.asked);
  }

  @Test
  void fullInternalChildrenFlushBeforeTheirParentAndTheDeepestLevelFirst() {
    // Three levels, t = 2: node 1 (level 1) is full, and so is its internal child 11 (level 2).
    List<Node> one = List.of(new Node(1, 1, 0, 99, C + 50, 1));
    List<Node> two = List.of(new Node(11, 2, 0, 49, C + 1, 1), new Node(12, 2, 50, 99, 0, 0));
    List<Node> three = List.of(new Node(111, 3, 0, 24, 5, 1), new Node(112, 3, 25, 49, 5, 1),
        new Node(121, 3, 50, 99, 5, 1));
    Recorder host = new Recorder();
    Optional<String> next = TreeScheduler.next(new TreeShape(List.of(one, two, three), 2, C), true, Mode.lsa(), host);
    assertEquals(Optional.of("flush 11"), next, host.asked.toString());
    assertTrue(FlushOrder.fullest(new TreeShape(List.of(one, two, three), 2, C), two).stream()
        .allMatch(n -> n.bytes() >= C));
  }

  @Test
  void aHostThatCountsItsLeafLevelFullSoonerGetsTheLevelFirst() {
    // Two leaves, below t^2 = 4: full only by the host's own count.
    List<Node> leaves = List.of(new Node(11, 2, 0, 49, 10, 1), new Node(21, 2, 50, 99, 10, 1));
    Recorder host = new Recorder();
    assertEquals(Optional.of("flush 1"), TreeScheduler.next(twoLevels(C, 0, leaves), true, Mode.lsa(), host));
    host.leafLevelFull = true;
    host.asked.clear();
    assertEquals(Optional.of("add-level"), TreeScheduler.next(twoLevels(C, 0, leaves), true, Mode.lsa(), host));
    assertEquals(List.of("add-level"), host.asked, "before the full node");
    assertEquals(Optional.of("flush 1"), TreeScheduler.next(twoLevels(C, 0, leaves), false, Mode.lsa(), host),
        "not past the depth guard");
  }

  @Test
  void aHostsOwnStepsGoBeforeAndAfterTheFullNodes() {
    List<Node> leaves = List.of(new Node(11, 2, 0, 49, 10, 1), new Node(21, 2, 50, 99, 10, 1));
    Recorder host = new Recorder();
    host.first = Optional.of("adopt");
    assertEquals(Optional.of("adopt"), TreeScheduler.next(twoLevels(C + 5, 0, leaves), true, Mode.lsa(), host));
    host.first = Optional.empty();
    host.afterFlushes = Optional.of("follow-up");
    assertEquals(Optional.of("flush 1"), TreeScheduler.next(twoLevels(C + 5, 0, leaves), true, Mode.lsa(), host),
        "a full node before the follow-up");
    assertEquals(Optional.of("follow-up"), TreeScheduler.next(twoLevels(10, 0, leaves), true, Mode.lsa(), host));
  }
}
