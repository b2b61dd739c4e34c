package io.iam.asterix.lsm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponentId;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponentIdGenerator;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMemoryComponent;
import org.apache.hyracks.storage.am.lsm.common.impls.FlushOperation;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMComponentId;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMComponentIdGenerator;
import org.apache.hyracks.storage.am.lsm.common.util.LSMComponentIdUtils;
import org.apache.hyracks.storage.common.IResource;

/**
 * The IO callback of {@link InProcessLsmBTree}: it gives components ids as AsterixDB 0.9.8 does and
 * records every flush and merge, in the order they finish.
 *
 * <p><b>Ids.</b> AsterixDB's own callback ({@code asterix-common}'s {@code LSMIOOperationCallback})
 * cannot be used here: it needs a dataset's {@code DatasetInfo} and checkpoint manager, and
 * asterix-common is not among this build's dependencies. This one does what it does with ids, step
 * for step:
 * <ul>
 *   <li>it starts from an {@link LSMComponentIdGenerator} over {@code lastUsedId = 0}, as
 *       {@code DatasetLifecycleManager} builds one for a new dataset, so flushes are numbered 1, 2,
 *       3, …;
 *   <li>when a flush is scheduled it refreshes the generator and queues the next id (in AsterixDB
 *       {@code PrimaryIndexOperationTracker.triggerScheduleFlush} refreshes and passes the id to
 *       {@code LSMIOOperationCallback.scheduled}, which queues it);
 *   <li>{@link #recycled} gives a memory component coming back into use the next queued id;
 *   <li>after a flush the new disk component gets its memory component's id, after a merge the
 *       union of its first and last input's ids ({@link LSMComponentIdUtils#union}), both written
 *       into its metadata with {@link LSMComponentIdUtils#persist}.
 * </ul>
 * With {@code componentIds == false} it assigns none, as Hyracks' no-op callback does: every disk
 * component then reads back as {@code [-1, -1]}.
 *
 * <p>One factory serves one index.
 */
public final class RecordingIoCallbackFactory implements ILSMIOOperationCallbackFactory {

  private static final long serialVersionUID = 1L;

  /** A component's id interval; {@code [-1, -1]} when it has none. */
  public record IdRange(long min, long max) {

    static IdRange of(ILSMComponentId id) {
      return id == null ? new IdRange(LSMComponentId.NOT_FOUND, LSMComponentId.NOT_FOUND)
          : new IdRange(id.getMinId(), id.getMaxId());
    }

    public boolean valid() {
      return min >= LSMComponentId.MIN_VALID_COMPONENT_ID && max >= min;
    }

    @Override
    public String toString() {
      return "[" + min + "," + max + "]";
    }
  }

  /**
   * One finished flush or merge.
   *
   * @param inputs a merge's inputs, oldest first (empty for a flush)
   * @param inputIds their ids, in the same order
   * @param output the component written
   * @param outputId its id
   * @param outputBytes its length ({@link ILSMDiskComponent#getComponentSize()})
   */
  public record IoEvent(LSMIOOperationType type, List<ILSMDiskComponent> inputs,
      List<IdRange> inputIds, ILSMDiskComponent output, IdRange outputId, long outputBytes) {

    public boolean isFlush() {
      return type == LSMIOOperationType.FLUSH;
    }
  }

  private final boolean componentIds;
  private final transient List<IoEvent> events = Collections.synchronizedList(new ArrayList<>());
  private final transient List<List<ILSMDiskComponent>> scheduledMerges =
      Collections.synchronizedList(new ArrayList<>());

  /** @param componentIds whether to number flushes as AsterixDB does */
  public RecordingIoCallbackFactory(boolean componentIds) {
    this.componentIds = componentIds;
  }

  /** Every finished flush and merge so far, in order. */
  public List<IoEvent> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** The inputs of every merge scheduled so far, oldest first, in the order scheduled. */
  public List<List<ILSMDiskComponent>> scheduledMerges() {
    synchronized (scheduledMerges) {
      return List.copyOf(scheduledMerges);
    }
  }

  @Override
  public void initialize(INCServiceContext ncCtx, IResource resource) {
    // Nothing to look up: the generator is built here, not found through the NC.
  }

  @Override
  public ILSMIOOperationCallback createIoOpCallback(ILSMIndex index) {
    return new Callback();
  }

  @Override
  public int getCurrentMemoryComponentIndex() {
    return 0; // a new index, as LSMComponentIdGenerator starts
  }

  @Override
  public com.fasterxml.jackson.databind.JsonNode toJson(IPersistedResourceRegistry registry)
      throws HyracksDataException {
    return registry.getClassIdentifier(getClass(), serialVersionUID);
  }

  private final class Callback implements ILSMIOOperationCallback {

    /** AsterixDB keeps one generator per dataset partition; one index here. */
    private final ILSMComponentIdGenerator generator = new LSMComponentIdGenerator(2, 0);
    private final Deque<ILSMComponentId> componentIds = new ArrayDeque<>();

    Callback() {
      componentIds.add(generator.getId());
    }

    @Override
    public void recycled(ILSMMemoryComponent component) throws HyracksDataException {
      if (RecordingIoCallbackFactory.this.componentIds) {
        component.resetId(componentIds.poll(), false);
      }
    }

    @Override
    public void allocated(ILSMMemoryComponent component) {
      // AsterixDB does nothing here either.
    }

    @Override
    public synchronized void scheduled(ILSMIOOperation operation) throws HyracksDataException {
      if (operation.getIOOpertionType() == LSMIOOperationType.FLUSH) {
        generator.refresh();
        componentIds.add(generator.getId());
      } else if (operation.getIOOpertionType() == LSMIOOperationType.MERGE) {
        scheduledMerges.add(oldestFirst(operation));
      }
    }

    @Override
    public void beforeOperation(ILSMIOOperation operation) {
      // Nothing to prepare.
    }

    @Override
    public void afterOperation(ILSMIOOperation operation) throws HyracksDataException {
      if (operation.getStatus() == LSMIOOperationStatus.FAILURE
          || !RecordingIoCallbackFactory.this.componentIds) {
        return;
      }
      if (operation.getIOOpertionType() == LSMIOOperationType.FLUSH) {
        LSMComponentIdUtils.persist(((FlushOperation) operation).getFlushingComponent().getId(),
            operation.getNewComponent().getMetadata());
      } else if (operation.getIOOpertionType() == LSMIOOperationType.MERGE) {
        List<ILSMDiskComponent> merged = operation.getAccessor().getOpContext().getComponentsToBeMerged();
        LSMComponentIdUtils.persist(
            LSMComponentIdUtils.union(merged.get(0).getId(), merged.get(merged.size() - 1).getId()),
            operation.getNewComponent().getMetadata());
      }
    }

    @Override
    public void afterFinalize(ILSMIOOperation operation) throws HyracksDataException {
      if (operation.getStatus() == LSMIOOperationStatus.FAILURE) {
        return;
      }
      ILSMDiskComponent output = operation.getNewComponent();
      List<ILSMDiskComponent> inputs = operation.getIOOpertionType() == LSMIOOperationType.MERGE
          ? oldestFirst(operation) : List.of();
      events.add(new IoEvent(operation.getIOOpertionType(), inputs, ids(inputs), output,
          IdRange.of(output.getId()), output.getComponentSize()));
    }

    @Override
    public void completed(ILSMIOOperation operation) {
      // Recorded in afterFinalize, once the component is valid.
    }
  }

  /** A merge's inputs, which Hyracks lists newest first, oldest first. */
  private static List<ILSMDiskComponent> oldestFirst(ILSMIOOperation merge) {
    List<ILSMDiskComponent> inputs =
        new ArrayList<>(merge.getAccessor().getOpContext().getComponentsToBeMerged());
    Collections.reverse(inputs);
    return inputs;
  }

  private static List<IdRange> ids(List<ILSMDiskComponent> components) throws HyracksDataException {
    List<IdRange> ids = new ArrayList<>(components.size());
    for (ILSMDiskComponent c : components) {
      ids.add(IdRange.of(c.getId()));
    }
    return ids;
  }
}
