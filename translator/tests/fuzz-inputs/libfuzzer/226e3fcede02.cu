void :()y { cudaDeviceSynchronize();  0({  )=cudaFree(0); }
