package io.iam.asterix.policy;

import io.iam.asterix.config.AsterixParameters;
import io.iam.core.policy.MergePolicies;
import java.util.Map;
import java.util.Set;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;

/**
 * The AsterixDB merge-policy factory of one iam-core policy. AsterixDB finds a factory by class
 * name (from its {@code Metadata.CompactionPolicy} dataset) and instantiates it without arguments,
 * so each policy has a small subclass that names it; everything else is here. The factory is
 * persisted with each index as its class identifier only: the parameters are persisted by
 * AsterixDB beside it and handed back to {@link #createMergePolicy}.
 */
public abstract class IamMergePolicyFactory implements ILSMMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  private final String asterixName;
  private final String kernelName;

  /**
   * @param asterixName the name users write in {@code "merge-policy": {"name": …}}
   * @param kernelName the iam-core policy it runs
   */
  protected IamMergePolicyFactory(String asterixName, String kernelName) {
    this.asterixName = asterixName;
    this.kernelName = kernelName;
  }

  @Override
  public String getName() {
    return asterixName;
  }

  /** The iam-core policy's descriptor. */
  public MergePolicies.Descriptor descriptor() {
    return MergePolicies.descriptor(kernelName);
  }

  @Override
  public Set<String> getPropertiesNames() {
    return AsterixParameters.names(descriptor());
  }

  /**
   * Builds the policy from AsterixDB's parameters.
   *
   * @throws io.iam.core.option.InvalidOptionsException naming each bad parameter
   */
  @Override
  public ILSMMergePolicy createMergePolicy(Map<String, String> properties, INCServiceContext ctx) {
    MergePolicies.Descriptor d = descriptor();
    return new IamMergePolicy(d.factory().apply(AsterixParameters.parse(d, asterixName, properties)));
  }

  @Override
  public com.fasterxml.jackson.databind.JsonNode toJson(IPersistedResourceRegistry registry)
      throws HyracksDataException {
    return registry.getClassIdentifier(getClass(), serialVersionUID);
  }
}
