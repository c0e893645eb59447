/** Flow hash functions of switch ASICs (CRC, XOR folding, Toeplitz), seeds, and ECMP member selection. */
package fabriclab.loadbalancing.hash;
