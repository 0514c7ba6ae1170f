/* mpi_host.c - which rank comes first on its host (mpi.h). */
#include <mpi.h>

#include "mpi/mpi.h"

bool iom_mpi_first_on_host(void)
{
    /* MPI 3.0 section 6.4.2: MPI_COMM_TYPE_SHARED splits the ranks by the
     * shared-memory domain they run in, one per host for Open MPI and MPICH */
    MPI_Comm node;
    int r = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        return iom_mpi_rank() == 0;
    MPI_Comm_rank(node, &r);
    MPI_Comm_free(&node);
    return r == 0;
}
