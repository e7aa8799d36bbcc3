// /shows (issue 35): TV moved to the Watch page, beside films; an old address or bookmark lands there.
import type { ReactElement } from 'react';
import { Navigate } from 'react-router';

export function ShowsPage(): ReactElement {
  return <Navigate to="/watch" replace />;
}
