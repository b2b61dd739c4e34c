package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A host that merges late, two merges at a time, at random moments, runs exactly the merges the cost
 * model makes for the same flushes; and the schedule starts over when the host merges on its own.
 */
class MergeScheduleTest {

  /** A host component with the flushes it holds, as the test tracks them. */
  private record HostFile(String name, long size, long firstFlush, long lastFlush, Set<String> mergedFrom) {}

  /** A merge as flush ranges: which flushes went in. */
  private record Merge(long firstFlush, long lastFlush, long bytes) {}

  /** The host: its files oldest first, and the merges it is running. */
  private static final class Host {
    final List<HostFile> files = new ArrayList<>();
    final List<List<HostFile>> running = new ArrayList<>();
    final List<Merge> done = new ArrayList<>();
    int names;

    List<StoredComponent> view() {
      Set<String> merging = new HashSet<>();
      running.forEach(r -> r.forEach(f -> merging.add(f.name())));
      List<StoredComponent> v = new ArrayList<>();
      for (HostFile f : files) {
        v.add(new StoredComponent(f.name(), f.size(), f.mergedFrom(), merging.contains(f.name())));
      }
      return v;
    }

    void flush(long flush, long size) {
      files.add(new HostFile("f" + names++, size, flush, flush, Set.of()));
    }

    /** Starts the merge the schedule offers, if any and if a thread is free. */
    void ask(MergeSchedule schedule, MergePolicy policy) {
      if (running.size() >= 2) {
        return;
      }
      MergePlan plan = schedule.next(policy, view());
      if (!plan.isNone()) {
        running.add(List.copyOf(files.subList(plan.from(), plan.to() + 1)));
      }
    }

    /** Finishes running merge {@code i}: its output takes its inputs' place. */
    void finish(int i) {
      List<HostFile> inputs = running.remove(i);
      int at = files.indexOf(inputs.get(0));
      Set<String> from = new HashSet<>();
      inputs.forEach(f -> from.add(f.name()));
      long size = inputs.stream().mapToLong(HostFile::size).sum();
      HostFile out = new HostFile("m" + names++, size, inputs.get(0).firstFlush(),
          inputs.get(inputs.size() - 1).lastFlush(), from);
      files.subList(at, at + inputs.size()).clear();
      files.add(at, out);
      done.add(new Merge(out.firstFlush(), out.lastFlush(), size));
    }
  }

  /** The cost model: after every flush the policy decides, and its merge is done at once. */
  private static List<Merge> model(MergePolicy policy, long[] sizes) {
    List<Component> stack = new ArrayList<>();
    List<Merge> merges = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      long flush = i + 1;
      stack.add(new Component(flush, sizes[i], flush, flush, 1, false));
      MergePlan plan = policy.plan(StackSnapshot.of(renumbered(stack), flush));
      if (!plan.isNone()) {
        List<Component> in = stack.subList(plan.from(), plan.to() + 1);
        long bytes = in.stream().mapToLong(Component::sizeBytes).sum();
        Component out = new Component(0, bytes, in.get(0).firstFlush(), in.get(in.size() - 1).lastFlush(), 1, false);
        in.clear();
        stack.add(plan.from(), out);
        merges.add(new Merge(out.firstFlush(), out.lastFlush(), bytes));
      }
    }
    return merges;
  }

  private static List<Component> renumbered(List<Component> stack) {
    List<Component> out = new ArrayList<>();
    for (int i = 0; i < stack.size(); i++) {
      Component c = stack.get(i);
      out.add(new Component(i, c.sizeBytes(), c.firstFlush(), c.lastFlush(), 1, false));
    }
    return out;
  }

  static Stream<Arguments> policies() {
    return Stream.of(
        Arguments.of("binomial", Map.of("max-components", "6")),
        Arguments.of("minlatency", Map.of("max-components", "4")),
        Arguments.of("bigtable", Map.of("max-components", "3")),
        Arguments.of("constant", Map.of("max-components", "3")),
        Arguments.of("exploring", Map.of("max-components", "5")));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("policies")
  void aHostThatMergesLateRunsTheModelsMergesForTheSameFlushes(String name, Map<String, String> options) {
    MergePolicy policy = MergePolicies.create(name, options);
    Random random = new Random(name.hashCode());
    int flushes = 600;
    long[] sizes = new long[flushes];
    for (int i = 0; i < flushes; i++) {
      sizes[i] = 900 + random.nextInt(200);
    }
    MergeSchedule schedule = new MergeSchedule(1_000);
    Host host = new Host();
    int mostFiles = 0;
    for (int i = 0; i < flushes; i++) {
      host.flush(i + 1, sizes[i]);
      host.ask(schedule, policy);
      // Merges end at random: often several flushes after they began.
      while (!host.running.isEmpty() && random.nextInt(3) == 0) {
        host.finish(random.nextInt(host.running.size()));
        host.ask(schedule, policy);
      }
      mostFiles = Math.max(mostFiles, host.files.size());
    }
    while (!host.running.isEmpty() || schedule.scheduled() > 0) {
      if (!host.running.isEmpty()) {
        host.finish(0);
      }
      host.ask(schedule, policy);
    }

    List<Merge> expected = model(policy, sizes);
    assertTrue(expected.size() > 50, "the model merges often: " + expected.size());
    assertTrue(mostFiles > policy.maxComponents() + 1, "the host fell behind the model: " + mostFiles);
    assertEquals(sorted(expected), sorted(host.done), "the same merges, flush ranges and bytes");
    assertEquals(0, schedule.restarts());
    assertEquals(flushes, schedule.decisions());
    assertTrue(host.files.size() <= policy.maxComponents(), "settled within the bound: " + host.files.size());
  }

  private static List<Merge> sorted(List<Merge> merges) {
    List<Merge> s = new ArrayList<>(merges);
    s.sort(java.util.Comparator.comparingLong(Merge::lastFlush).thenComparingLong(Merge::firstFlush));
    return s;
  }

  @Test
  void aMergeTheHostChoseItselfMakesTheScheduleStartOverFromTheHostsFiles() {
    MergePolicy policy = MergePolicies.create("constant", Map.of("max-components", "3"));
    MergeSchedule schedule = new MergeSchedule(100);
    Host host = new Host();
    for (int i = 1; i <= 3; i++) {
      host.flush(i, 100);
      assertTrue(schedule.next(policy, host.view()).isNone(), "three files fit the bound");
    }
    // The host merges the two oldest files on its own (HBase's selection when a store is stuck).
    host.running.add(List.copyOf(host.files.subList(0, 2)));
    host.finish(0);
    host.flush(4, 100);
    host.flush(5, 100);

    MergePlan plan = schedule.next(policy, host.view());

    assertEquals(1, schedule.restarts());
    assertEquals(5, schedule.modelStack().flushCount(), "flushes counted from the host's files");
    assertEquals(MergePlan.merge(0, 3), plan, "the policy decided once on the four files it found");
    assertEquals(1, schedule.scheduled());
  }

  @Test
  void aScheduledMergeWhoseInputsAreBeingMergedIsNotOfferedTwice() {
    MergePolicy policy = MergePolicies.create("constant", Map.of("max-components", "2"));
    MergeSchedule schedule = new MergeSchedule(100);
    Host host = new Host();
    host.flush(1, 100);
    host.flush(2, 100);
    host.flush(3, 100);
    host.ask(schedule, policy);
    assertEquals(1, host.running.size());
    assertTrue(schedule.next(policy, host.view()).isNone(), "its inputs are merging");
    host.finish(0);
    assertTrue(schedule.next(policy, host.view()).isNone(), "the merge is done and the stack within its bound");
    assertEquals(0, schedule.scheduled());
    assertEquals(host.files.size(), schedule.modelStack().size(), "the model's stack is the host's");
  }
}
