import { loadLazily } from '../../lazy-module.js';

/** ethers + siwe (~130 modules): loaded by the first wallet request, not at start (daemon/lazy-module.ts). */
export const loadWalletLibs = loadLazily('Sign-In with Ethereum (ethers, siwe)', async () => {
  const [ethers, siwe] = await Promise.all([import('ethers'), import('siwe')]);
  return {
    getAddress: ethers.getAddress,
    isAddress: ethers.isAddress,
    verifyMessage: ethers.verifyMessage,
    SiweMessage: siwe.SiweMessage,
  };
});
