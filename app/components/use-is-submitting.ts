import { useFormAction, useNavigation } from 'react-router'

/**
 * True while a form of this route is being sent, and while the page it leads to loads: the
 * button says "Saving..." until there is something new to see. With `intent`, only the form
 * that sends that intent counts (a page with an upload form and delete buttons, say).
 */
export function useIsSubmitting(intent?: string): boolean {
  const navigation = useNavigation()
  const formAction = useFormAction()
  return (
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formAction === formAction &&
    (intent === undefined || navigation.formData?.get('intent') === intent)
  )
}
