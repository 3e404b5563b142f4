/**
 * The certificates.k8s.io group (`pkg/registry/certificates`): CertificateSigningRequests with
 * their approval subresource (an update of the object the strategy tells apart).
 */
import type { ResourceDefinition } from "../../api/types.js";
import type { GroupDefinitions } from "../context.js";
import { labels } from "../field-labels.js";
import { certificateSigningRequests } from "./certificate-signing-requests.js";

export const certificates: GroupDefinitions = {
  group: "certificates.k8s.io",
  resources: (): ResourceDefinition[] => [
    {
      resource: "certificatesigningrequests",
      strategy: certificateSigningRequests,
      fieldLabels: labels("spec.signerName"),
      subresources: { approval: {} },
    },
  ],
};
