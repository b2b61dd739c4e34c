package io.iam.asterix.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.StackSnapshot;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMComponentId;
import org.junit.jupiter.api.Test;

/**
 * How {@link IamMergePolicy} counts the flushes of components without ids ({@code [-1, -1]}), on
 * stand-in components; {@code IamMergePolicyInHyracksTest} does the same on real ones, with the
 * synchronous scheduler. A policy that never merges here (constant, k = 64) shows the stacks it is
 * given, as flush ranges.
 */
class IamMergePolicyIdlessTest {

  private final RecordingPolicy kernel =
      new RecordingPolicy(MergePolicies.create("constant", Map.of("max-components", "64")));
  private final IamMergePolicy policy = new IamMergePolicy(kernel);

  @Test
  void aMergeThatRanWhileAFlushLandedHoldsItsInputsFlushes() throws Exception {
    ILSMDiskComponent a = component(10);
    ILSMDiskComponent b = component(10);
    policy.diskComponentAdded(index(a), false);
    policy.diskComponentAdded(index(a, b), false);
    assertEquals(List.of(List.of(1L, 1L), List.of(2L, 2L)), lastStack());
    // An asynchronous scheduler merged a and b while flush c landed; the policy sees both at once.
    ILSMDiskComponent merged = component(18);
    ILSMDiskComponent c = component(10);
    policy.diskComponentAdded(index(merged, c), false);
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 3L)), lastStack());
    ILSMDiskComponent d = component(10);
    policy.diskComponentAdded(index(merged, c, d), false);
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 3L), List.of(4L, 4L)), lastStack());
  }

  @Test
  void aMergeWithAComponentThatHasAnIdHoldsBothInputsFlushes() throws Exception {
    // An index written before AsterixDB had ids, then a flush with id 2; AsterixDB's union of
    // [-1, -1] and [2, 2] is [-1, 2], no valid id either.
    ILSMDiskComponent legacy = component(10);
    ILSMDiskComponent numbered = component(10, new LSMComponentId(2, 2));
    policy.diskComponentAdded(index(legacy, numbered), false);
    assertEquals(List.of(List.of(1L, 1L), List.of(2L, 2L)), lastStack());
    ILSMDiskComponent merged = component(19, new LSMComponentId(-1, 2));
    policy.diskComponentAdded(index(merged), false);
    // The policy is asked again at the next flush (the ledger decides once per flush count).
    policy.diskComponentAdded(index(merged, component(10, new LSMComponentId(3, 3))), false);
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 3L)), lastStack());
  }

  @Test
  void componentsThereAtTheFirstLookAreEstimatedFromTheSmallest() throws Exception {
    // After a restart: 40 bytes is four flushes of 10, 19 rounds to two, the smallest are one each.
    policy.diskComponentAdded(index(component(40), component(19), component(10), component(10)), false);
    assertEquals(List.of(List.of(1L, 4L), List.of(5L, 6L), List.of(7L, 7L), List.of(8L, 8L)),
        lastStack());
  }

  /** The flush range of each component of the stack the kernel was shown last, oldest first. */
  private List<List<Long>> lastStack() {
    List<RecordingPolicy.Decision> decisions = kernel.decisions();
    StackSnapshot s = decisions.get(decisions.size() - 1).snapshot();
    List<List<Long>> ranges = new ArrayList<>();
    s.components().forEach(c -> ranges.add(List.of(c.firstFlush(), c.lastFlush())));
    return ranges;
  }

  /** An index whose disk components are {@code oldestFirst} (Hyracks lists them newest first). */
  private static ILSMIndex index(ILSMDiskComponent... oldestFirst) {
    List<ILSMDiskComponent> newestFirst = new ArrayList<>(List.of(oldestFirst));
    Collections.reverse(newestFirst);
    return stub(ILSMIndex.class, (method, args) -> switch (method) {
      case "getDiskComponents" -> newestFirst;
      default -> null;
    });
  }

  /** An idle disk component of {@code size} bytes without an id. */
  private static ILSMDiskComponent component(long size) {
    return component(size, LSMComponentId.EMPTY_INDEX_LAST_COMPONENT_ID);
  }

  private static ILSMDiskComponent component(long size, LSMComponentId id) {
    return stub(ILSMDiskComponent.class, (method, args) -> switch (method) {
      case "getId" -> id;
      case "getComponentSize" -> size;
      case "getState" -> ComponentState.READABLE_UNWRITABLE;
      default -> null;
    });
  }

  private interface Answer {
    Object answer(String method, Object[] args);
  }

  /** A stand-in answering {@code answers}; identity for equals and hashCode; anything else fails. */
  private static <T> T stub(Class<T> type, Answer answers) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "equals":
              return proxy == args[0];
            case "hashCode":
              return System.identityHashCode(proxy);
            case "toString":
              return type.getSimpleName() + "@" + Integer.toHexString(System.identityHashCode(proxy));
            default:
              Object answer = answers.answer(method.getName(), args);
              if (answer == null) {
                throw new UnsupportedOperationException(method.getName());
              }
              return answer;
          }
        }));
  }
}
