package io.iam.asterix.app;

import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import java.util.List;
import org.apache.asterix.metadata.MetadataManager;
import org.apache.asterix.metadata.MetadataTransactionContext;
import org.apache.asterix.metadata.api.ExtensionMetadataDataset;
import org.apache.asterix.metadata.api.IMetadataExtension;
import org.apache.asterix.metadata.api.IMetadataManager;
import org.apache.asterix.metadata.entities.CompactionPolicy;
import org.apache.asterix.metadata.entitytupletranslators.MetadataTupleTranslatorProvider;
import org.apache.asterix.metadata.utils.MetadataConstants;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Maps each of our policy names to its factory class in {@code Metadata.CompactionPolicy}, the
 * table AsterixDB resolves {@code "merge-policy": {"name": …}} through.
 *
 * <p>It is a metadata extension so that AsterixDB itself runs it at the right moment: on the
 * metadata node, every time that node starts, right after AsterixDB has bootstrapped (or
 * recovered) its metadata and before the node reports itself bound, so the names exist before any
 * statement can be compiled. {@link IamNCApplication} adds it to the node's extensions; it needs no
 * configuration of its own.
 *
 * <p>Idempotent: a name already present is left alone, so restarts insert nothing. A name present
 * with another class (someone else's policy of the same name) is logged as an error and left
 * alone; AsterixDB offers no update of a compaction-policy row.
 */
public final class CompactionPolicyRegistrar extends FixedExtension implements IMetadataExtension {

  private static final Logger LOG = LogManager.getLogger(CompactionPolicyRegistrar.class);

  public CompactionPolicyRegistrar() {
    super("iam-compaction-policies");
  }

  /** None: AsterixDB's own translators read and write the rows we add. */
  @Override
  public MetadataTupleTranslatorProvider getMetadataTupleTranslatorProvider() {
    return null;
  }

  /** None: the rows go into AsterixDB's own CompactionPolicy dataset. */
  @Override
  public List<ExtensionMetadataDataset> getExtensionIndexes() {
    return List.of();
  }

  @Override
  public void initializeMetadata(INCServiceContext ctx) throws HyracksDataException {
    IMetadataManager metadata = MetadataManager.INSTANCE;
    MetadataTransactionContext txn = null;
    try {
      txn = metadata.beginTransaction();
      int added = register(metadata, txn);
      metadata.commitTransaction(txn);
      LOG.info("IAM merge policies: {} of {} names added to Metadata.CompactionPolicy", added,
          AsterixPolicies.all().size());
    } catch (Exception e) {
      if (txn != null) {
        try {
          metadata.abortTransaction(txn);
        } catch (Exception abort) {
          e.addSuppressed(abort);
        }
      }
      throw HyracksDataException.create(e);
    }
  }

  /** Adds the missing rows in {@code txn}; returns how many it added. */
  static int register(IMetadataManager metadata, MetadataTransactionContext txn) throws Exception {
    int added = 0;
    for (IamMergePolicyFactory factory : AsterixPolicies.all()) {
      String className = factory.getClass().getName();
      CompactionPolicy existing = metadata.getCompactionPolicy(
          txn, MetadataConstants.METADATA_DATAVERSE_NAME, factory.getName());
      if (existing == null) {
        metadata.addCompactionPolicy(txn, new CompactionPolicy(
            MetadataConstants.METADATA_DATAVERSE_NAME, factory.getName(), className));
        added++;
      } else if (!existing.getClassName().equals(className)) {
        LOG.error("compaction policy '{}' is already mapped to {}, not to IAM's {}; datasets naming it"
            + " will use {}", factory.getName(), existing.getClassName(), className,
            existing.getClassName());
      }
    }
    return added;
  }
}
