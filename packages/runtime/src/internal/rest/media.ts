/**
 * Media types of the metadata-only protocol (client-go's metadata client): asking for
 * PartialObjectMetadata(List) makes the API server send only each object's ObjectMeta, which is
 * all an owner mapping or a label index needs and a fraction of the bytes.
 */
export const partialObjectMetadataAccept =
  "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
export const partialObjectMetadataListAccept =
  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
