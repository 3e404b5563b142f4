/** Pod Security admission: see pod-security/admission.ts (checks, versions and messages beside it). */
export {
  PodSecurityAdmission,
  type PodSecurityOptions,
} from "./pod-security/admission.js";
