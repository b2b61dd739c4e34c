package io.iam.asterix.policy;

import io.iam.core.policy.FlushLedger;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StoredComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponentId;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * Runs one of iam-core's stack policies on an AsterixDB / Hyracks LSM index. It only translates:
 * the index's disk components (which Hyracks lists newest first) become the kernel's stack, oldest
 * first, through a {@link FlushLedger}; the kernel's plan becomes one {@code scheduleMerge} of the
 * same contiguous components.
 *
 * <p>Flush counts come from AsterixDB's component ids: its generator numbers the flushes of an
 * index 1, 2, 3, … and a merged component carries the range of its inputs, so a component holds
 * {@code maxId − minId + 1} flushes, exactly, across restarts too.
 *
 * <p>Components without valid ids ({@code [-1, -1]}: Hyracks without AsterixDB's IO callback, or
 * components written before AsterixDB had ids) are counted by the ledger from what this policy saw
 * happen, which is exact while the index stays open: one that appears while none went away is a
 * flush; when some went away, the oldest new one is their merge (this policy runs one merge at a
 * time) and holds their flushes, and any newer one is a flush. Those already there when the policy
 * first looks (after a restart) are estimated from their sizes: the smallest are taken for single
 * flushes, and the ledger estimates each other one as {@code round(size / unit)} flushes (see
 * {@link FlushLedger}; the unit is the mean size of the components it has no inputs for, the
 * smallest id-less ones among them). A static policy then resumes near its schedule, not on it.
 *
 * <p>As AsterixDB's built-in policies do, it does nothing while any component is being merged, and
 * a full-merge request merges everything. {@link #isMergeLagging} throttles ingestion once the
 * index holds more than {@link #hardBound()} components: while a merge runs, flushes wait; if none
 * runs (after a crash, say), it starts the merge the policy asks for, or a full merge.
 *
 * <p>One instance serves one index; calls are synchronized.
 */
public final class IamMergePolicy implements ILSMMergePolicy {

  /** An input name no component has: the ledger then estimates a component from its size. */
  private static final Set<String> UNKNOWN_INPUTS = Set.of("(inputs unknown)");

  private final MergePolicy policy;
  private final FlushLedger ledger;
  private final int hardBound;
  /** Names given to the id-less components of the last look, by identity. */
  private Map<ILSMDiskComponent, String> idless = Map.of();
  private long idlessNamed;
  /** Names of all components of the last look; null before the first. */
  private Set<String> lastLook;

  IamMergePolicy(MergePolicy policy) {
    this.policy = policy;
    // Hyracks components hold a memory component's worth; the ledger only needs a unit when it
    // estimates, which it does not with valid ids.
    this.ledger = new FlushLedger(1);
    this.hardBound = hardBound(policy);
  }

  /**
   * The component count above which ingestion waits for merges: 2k + 1 for a policy bounded by k
   * (room for k components, plus the flushes that land while a long merge runs), 64 otherwise.
   */
  static int hardBound(MergePolicy policy) {
    int k = policy.maxComponents();
    return k == Integer.MAX_VALUE ? 64 : 2 * k + 1;
  }

  /** The kernel policy. */
  public MergePolicy kernelPolicy() {
    return policy;
  }

  public int hardBound() {
    return hardBound;
  }

  @Override
  public void configure(Map<String, String> properties) {
    // Built from validated parameters by IamMergePolicyFactory; nothing more to configure.
  }

  @Override
  public synchronized void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested)
      throws HyracksDataException {
    List<ILSMDiskComponent> newestFirst = new ArrayList<>(index.getDiskComponents());
    if (!allIdle(newestFirst)) {
      return;
    }
    if (fullMergeIsRequested) {
      accessor(index).scheduleFullMerge();
      return;
    }
    scheduleMerge(index, newestFirst, false);
  }

  @Override
  public synchronized boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
    List<ILSMDiskComponent> newestFirst = new ArrayList<>(index.getDiskComponents());
    if (newestFirst.size() <= hardBound) {
      return false;
    }
    if (allIdle(newestFirst) && !scheduleMerge(index, newestFirst, true)) {
      accessor(index).scheduleFullMerge();
    }
    return true;
  }

  /** Asks the policy and schedules its merge; returns whether one was scheduled. */
  private boolean scheduleMerge(ILSMIndex index, List<ILSMDiskComponent> newestFirst,
      boolean explicit) throws HyracksDataException {
    List<ILSMDiskComponent> oldestFirst = new ArrayList<>(newestFirst);
    Collections.reverse(oldestFirst);
    MergePlan plan = ledger.decide(policy, views(oldestFirst), true, explicit);
    if (plan.isNone()) {
      return false;
    }
    List<ILSMDiskComponent> merge = new ArrayList<>(oldestFirst.subList(plan.from(), plan.to() + 1));
    Collections.reverse(merge); // Hyracks expects newest first
    accessor(index).scheduleMerge(merge);
    return true;
  }

  private List<StoredComponent> views(List<ILSMDiskComponent> oldestFirst)
      throws HyracksDataException {
    Map<ILSMDiskComponent, String> names = new IdentityHashMap<>();
    List<String> allNames = new ArrayList<>(oldestFirst.size());
    List<ILSMDiskComponent> fresh = new ArrayList<>();
    for (ILSMDiskComponent c : oldestFirst) {
      ILSMComponentId id = c.getId();
      String name;
      if (validId(id)) {
        name = id.getMinId() + "-" + id.getMaxId();
      } else {
        name = idless.get(c);
        if (name == null) {
          name = "component#" + ++idlessNamed;
          fresh.add(c);
        }
        names.put(c, name);
      }
      allNames.add(name);
    }
    Map<ILSMDiskComponent, Set<String>> inputs = idlessInputs(fresh, allNames);
    idless = names;
    lastLook = Set.copyOf(allNames);
    List<StoredComponent> views = new ArrayList<>(oldestFirst.size());
    for (int i = 0; i < oldestFirst.size(); i++) {
      ILSMDiskComponent c = oldestFirst.get(i);
      ILSMComponentId id = c.getId();
      boolean merging = c.getState() != ComponentState.READABLE_UNWRITABLE;
      views.add(validId(id)
          ? new StoredComponent(allNames.get(i), c.getComponentSize(), Set.of(), merging,
              id.getMaxId() - id.getMinId() + 1)
          : new StoredComponent(allNames.get(i), c.getComponentSize(),
              inputs.getOrDefault(c, Set.of()), merging));
    }
    return views;
  }

  /**
   * What the ledger is told of the inputs of the id-less components new since the last look
   * ({@code fresh}, oldest first; {@code names} are all components' now): nothing for a flush, the
   * names of the components that went away for a merge's output, {@link #UNKNOWN_INPUTS} for what
   * must be estimated.
   */
  private Map<ILSMDiskComponent, Set<String>> idlessInputs(
      List<ILSMDiskComponent> fresh, List<String> names) {
    Map<ILSMDiskComponent, Set<String>> inputs = new IdentityHashMap<>();
    if (fresh.isEmpty()) {
      return inputs;
    }
    if (lastLook == null) {
      long smallest = fresh.stream().mapToLong(ILSMDiskComponent::getComponentSize).min().orElseThrow();
      for (ILSMDiskComponent c : fresh) {
        if (c.getComponentSize() != smallest) {
          inputs.put(c, UNKNOWN_INPUTS);
        }
      }
      return inputs;
    }
    Set<String> gone = new HashSet<>(lastLook);
    gone.removeAll(names);
    if (!gone.isEmpty()) {
      inputs.put(fresh.get(0), gone);
    }
    return inputs;
  }

  private static boolean validId(ILSMComponentId id) {
    return id != null && id.getMinId() >= 0 && id.getMaxId() >= id.getMinId();
  }

  private static boolean allIdle(List<ILSMDiskComponent> components) {
    for (ILSMDiskComponent c : components) {
      if (c.getState() != ComponentState.READABLE_UNWRITABLE) {
        return false;
      }
    }
    return true;
  }

  private static ILSMIndexAccessor accessor(ILSMIndex index) throws HyracksDataException {
    return index.createAccessor(NoOpIndexAccessParameters.INSTANCE);
  }
}
