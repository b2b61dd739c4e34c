package io.iam.asterix.policy;

import io.iam.core.policy.FlushLedger;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StoredComponent;
import java.util.ArrayList;
import java.util.Collections;
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
 * {@code maxId − minId + 1} flushes, exactly, across restarts too. Components without valid ids
 * are counted by the ledger.
 *
 * <p>As AsterixDB's built-in policies do, it does nothing while any component is being merged, and
 * a full-merge request merges everything. {@link #isMergeLagging} throttles ingestion once the
 * index holds more than {@link #hardBound()} components: while a merge runs, flushes wait; if none
 * runs (after a crash, say), it starts the merge the policy asks for, or a full merge.
 *
 * <p>One instance serves one index; calls are synchronized.
 */
public final class IamMergePolicy implements ILSMMergePolicy {

  private final MergePolicy policy;
  private final FlushLedger ledger;
  private final int hardBound;

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

  private static List<StoredComponent> views(List<ILSMDiskComponent> oldestFirst)
      throws HyracksDataException {
    List<StoredComponent> views = new ArrayList<>(oldestFirst.size());
    for (ILSMDiskComponent c : oldestFirst) {
      ILSMComponentId id = c.getId();
      boolean valid = id != null && id.getMinId() >= 0 && id.getMaxId() >= id.getMinId();
      String name = valid ? id.getMinId() + "-" + id.getMaxId()
          : "component@" + Integer.toHexString(System.identityHashCode(c));
      views.add(new StoredComponent(name, c.getComponentSize(), Set.of(),
          c.getState() != ComponentState.READABLE_UNWRITABLE,
          valid ? id.getMaxId() - id.getMinId() + 1 : 0));
    }
    return views;
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
